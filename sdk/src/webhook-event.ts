import type { webhooks } from "./generated/schema";

type Payload<T extends keyof webhooks> = webhooks[T]["post"] extends { requestBody: { content: { "application/json": infer P } } } ? P : never;

/**
 * Any event a webhook receives, told apart by `type`:
 * `if (event.type === "email.bounced") event.data.bounce.type`. Verify the signature first (any
 * Standard Webhooks library does, with the webhook's `whsec_` secret).
 */
export type WebhookEvent = { [T in keyof webhooks]: Payload<T> }[keyof webhooks];
