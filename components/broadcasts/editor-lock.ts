"use client";

import { createContext, useContext } from "react";

/**
 * True when the broadcast can no longer be edited. The form's fieldset already disables every
 * native control; composite controls (chips, the schedule's clear button) also restyle themselves.
 */
export const EditorLock = createContext(false);

export const useEditorLocked = () => useContext(EditorLock);
