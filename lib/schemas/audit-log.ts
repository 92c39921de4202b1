import { z } from "zod";
import { dateTime, id, text } from "./common";

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
