import { z } from "zod";
import { dateTime, id, text } from "./common";

/**
 * Every action the audit log knows. Add a helper's own actions here (one list, so the filter of
 * GET /v1/audit-log and the settings page know them all).
 */
export const AUDIT_ACTIONS = [
  "user.signed_in",
  "user.sign_in_failed",
  "user.sign_in_locked",
  "user.email_verified",
  "user.password_changed",
  "user.password_reset",
  "user.sessions_revoked",
  "user.two_factor_enabled",
  "user.two_factor_disabled",
  "user.recovery_code_used",
  "user.address_reclaimed",
  "api_key.created",
  "api_key.revoked",
  "invitation.created",
  "invitation.resent",
  "invitation.cancelled",
  "invitation.accepted",
  "member.role_changed",
  "member.removed",
  "domain.created",
  "domain.verified",
  "domain.updated",
  "domain.deleted",
  "inbox.created",
  "inbox.updated",
  "inbox.deleted",
  "inbox.reconnected",
  "webhook.created",
  "webhook.updated",
  "webhook.toggled",
  "webhook.deleted",
  "contact.erased",
  "webhook.delivery_replayed",
  "suppression.created",
  "suppression.deleted",
  "organization.created",
  "organization.updated",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const auditLogQuery = z.object({
  action: text(100).optional().meta({ description: "Only entries of this action, e.g. `api_key.created`." }),
});

export const auditLogEntry = z.object({
  id,
  organization_id: id,
  action: z.string().meta({ description: "What happened, as `<resource>.<verb>`, e.g. `member.removed`, `user.sign_in_failed`." }),
  actor_user_id: id.nullable().meta({ description: "The user who acted (directly or through an API key)." }),
  actor_email: z.string().nullable(),
  actor_api_key_id: id.nullable().meta({ description: "The API key used, when the action came through one." }),
  ip: z.string().nullable(),
  target_type: z.string().nullable(),
  target_id: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
  created_at: dateTime,
});
auditLogEntry.register(z.globalRegistry, { id: "AuditLogEntry" });
