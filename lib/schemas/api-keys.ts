import { z } from "zod";
import { dateTime, id, limits, requiredText } from "./common";

export const createApiKeyInput = z.object({ name: requiredText(limits.name) });
export type CreateApiKeyInput = z.infer<typeof createApiKeyInput>;

export const apiKey = z.object({
  id,
  organization_id: id,
  name: z.string(),
  token_hint: z.string().meta({ description: "The last characters of the token, to tell keys apart." }),
  created_by: id,
  last_used_at: dateTime.nullable(),
  revoked_at: dateTime.nullable(),
  created_at: dateTime,
});
apiKey.register(z.globalRegistry, { id: "ApiKey" });

export const createdApiKey = apiKey.extend({ token: z.string().meta({ description: "The bearer token. Shown once." }) });
