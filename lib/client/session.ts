"use client";

import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import type { sessionInfo } from "@/lib/schemas/accounts";
import type { memberRole } from "@/lib/schemas/members";
import { apiCall } from "./api";
import { queryKeys } from "./query-keys";

export type Role = z.infer<typeof memberRole>;

/** What GET /api/session answers: the user, their organizations and the one in use. */
export type SessionInfo = z.infer<typeof sessionInfo>;

export const sessionQueryKey = queryKeys.session();

export function useSessionInfo() {
  return useQuery({ queryKey: sessionQueryKey, queryFn: () => apiCall("GET /api/session"), staleTime: 60_000 });
}

/** Owners and admins manage members, invitations and organization-wide settings. */
export const canManage = (role: Role | null | undefined) => role === "owner" || role === "admin";
