"use client";

import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "./api";
import { queryKeys } from "./query-keys";

export type Role = "owner" | "admin" | "member";

export type SessionOrganization = { id: string; name: string; role: Role };

/** What GET /api/session answers: the user, their organizations and the one in use. */
export type SessionInfo = {
  user: { id: string; email: string; name: string; email_verified: boolean };
  organizations: SessionOrganization[];
  current_organization_id: string | null;
  role: Role | null;
};

export const sessionQueryKey = queryKeys.session();

export function useSessionInfo() {
  return useQuery({ queryKey: sessionQueryKey, queryFn: () => apiFetch<SessionInfo>("/api/session"), staleTime: 60_000 });
}

/** Owners and admins manage members, invitations and organization-wide settings. */
export const canManage = (role: Role | null | undefined) => role === "owner" || role === "admin";
