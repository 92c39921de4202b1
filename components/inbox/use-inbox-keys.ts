"use client";

import { useEffect, useRef } from "react";

export type InboxKeyActions = { next: () => void; previous: () => void; done: () => void; reply: () => void };

/** Typing in a field, or a dialog or menu open: the keys are that element's, not the inbox's. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)) return true;
  return target.closest("[role=dialog], [role=menu], [role=listbox]") !== null;
}

/** The unified inbox's keys, as in mail clients: j next thread, k previous, e mark done, r reply. */
export function useInboxKeys(actions: InboxKeyActions) {
  // The latest actions without re-subscribing on every render.
  const current = useRef(actions);
  useEffect(() => {
    current.current = actions;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.metaKey || event.ctrlKey || event.altKey || isTyping(event.target)) return;
      const action = { j: current.current.next, k: current.current.previous, e: current.current.done, r: current.current.reply }[event.key];
      if (!action) return;
      event.preventDefault();
      action();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
