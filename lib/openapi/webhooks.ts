import { webhookEventPayloads } from "@/lib/schemas/webhook-events";
import type { schemaCollector } from "./json-schema";

export const WEBHOOK_EVENTS_TAG = "Webhook events";

/** The Standard Webhooks headers every delivery carries (lib/webhooks/deliver.ts signs them). */
export const webhookHeaderParameters = {
  "webhook-id": {
    name: "webhook-id",
    in: "header",
    required: true,
    description: "The delivery's id, the same on every retry: a receiver that saw it already can skip the event.",
    schema: { type: "string" },
  },
  "webhook-timestamp": {
    name: "webhook-timestamp",
    in: "header",
    required: true,
    description: "When this attempt was signed, in Unix seconds: refuse deliveries too far from your clock.",
    schema: { type: "string" },
  },
  "webhook-signature": {
    name: "webhook-signature",
    in: "header",
    required: true,
    description: '`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64 part of the webhook\'s `whsec_` secret.',
    schema: { type: "string" },
  },
};

/** What a receiver answers, shared by every event (fifteen copies were 2.6 KB). */
export const webhookResponses = {
  WebhookAcknowledged: { description: "Any 2xx answer within 10 seconds acknowledges the event." },
  WebhookFailed: { description: "Any other answer, a redirect included, is a failure: the delivery is retried later." },
};

const camel = (type: string) => type.replace(/[._](\w)/g, (_, letter: string) => letter.toUpperCase());

/** The document's `webhooks` section: one POST per event type, its body the event's payload schema. */
export function webhooksSection(schemas: ReturnType<typeof schemaCollector>) {
  return Object.fromEntries(
    Object.entries(webhookEventPayloads).map(([type, payload]) => [
      type,
      {
        post: {
          operationId: camel(type),
          tags: [WEBHOOK_EVENTS_TAG],
          // What the event means is its payload schema's description, written there once.
          summary: type,
          // The receiver checks the signature; there is no bearer token to send.
          security: [],
          parameters: Object.keys(webhookHeaderParameters).map((name) => ({ $ref: `#/components/parameters/${name}` })),
          requestBody: { required: true, content: { "application/json": { schema: schemas.output(payload) } } },
          responses: {
            "200": { $ref: "#/components/responses/WebhookAcknowledged" },
            "400": { $ref: "#/components/responses/WebhookFailed" },
          },
        },
      },
    ]),
  );
}
