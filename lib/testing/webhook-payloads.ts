import { z } from "zod";
import { webhookEventPayloads } from "@/lib/schemas/webhook-events";

/**
 * The payload as its event's schema documents it (lib/schemas/webhook-events.ts, the OpenAPI
 * document's `webhooks`), or a failure saying how it differs. Tests that read real deliveries pass
 * them through this, so the SQL and the code that build payloads cannot drift from the document.
 */
export function documentedPayload(payload: unknown) {
  const type = (payload as { type?: unknown } | null)?.type;
  const schema = webhookEventPayloads[type as keyof typeof webhookEventPayloads];
  if (!schema) throw new Error(`A webhook payload of an undocumented type: ${JSON.stringify(type)}`);
  const parsed = schema.safeParse(payload);
  if (!parsed.success) throw new Error(`A ${String(type)} payload its schema refuses:\n${z.prettifyError(parsed.error)}\n${JSON.stringify(payload)}`);
  // zod drops fields it does not know: a field the schema lacks is drift too.
  const extra = undocumented(payload, parsed.data);
  if (extra.length > 0) throw new Error(`A ${String(type)} payload with fields its schema does not document: ${extra.join(", ")}`);
  return parsed.data;
}

function undocumented(given: unknown, kept: unknown, path = ""): string[] {
  if (Array.isArray(given) && Array.isArray(kept)) return given.flatMap((item, i) => undocumented(item, kept[i], `${path}[${i}]`));
  if (!given || typeof given !== "object" || !kept || typeof kept !== "object") return [];
  return Object.entries(given).flatMap(([key, value]) =>
    key in kept ? undocumented(value, (kept as Record<string, unknown>)[key], path ? `${path}.${key}` : key) : [path ? `${path}.${key}` : key],
  );
}
