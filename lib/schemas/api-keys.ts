import { z } from "zod";
import { dateTime, id, limits, requiredText } from "./common";

const permission = z.enum(["full_access", "sending_access"]).meta({
  description:
    "full_access: everything its member may do. sending_access: only POST /v1/emails, POST /v1/emails/batch and the cancel of the emails it scheduled; anything else is 403 FORBIDDEN.",
});

export const createApiKeyInput = z
  .object({
    name: requiredText(limits.name),
    permission: permission.optional().meta({ description: "full_access unless given." }),
    domain_id: id.nullable().optional().meta({ description: "With sending_access: the one domain of the organization its emails may come from." }),
  })
  .superRefine((value, ctx) => {
    if (value.domain_id && value.permission !== "sending_access") {
      ctx.addIssue({ code: "custom", path: ["domain_id"], message: "is only for a key with sending_access" });
    }
  });
export type CreateApiKeyInput = z.infer<typeof createApiKeyInput>;

export const apiKey = z.object({
  id,
  organization_id: id,
  name: z.string(),
  token_hint: z.string().meta({ description: "The last characters of the token, to tell keys apart." }),
  permission,
  domain_id: id.nullable().meta({ description: "A sending key's domain; null: any verified domain of the organization." }),
  created_by: id,
  last_used_at: dateTime.nullable(),
  revoked_at: dateTime.nullable(),
  created_at: dateTime,
});
apiKey.register(z.globalRegistry, { id: "ApiKey" });

export const createdApiKey = apiKey.extend({ token: z.string().meta({ description: "The bearer token. Shown once." }) });
