import type { UserContext } from "@/lib/domain/context";
import type { ConsentRecord, ConsentSource } from "@/lib/schemas/contacts";

/** A contact keeps its latest this many consent records: each needs a subscription after an unsubscription, but nothing else bounds them. */
export const MAX_CONSENT_RECORDS = 50;

/** Who subscribed a contact through /v1: an application with an API key, or a member in the dashboard (its session). */
export const callerSource = (ctx: UserContext): ConsentSource => (ctx.apiKeyId ? "api" : "dashboard");

/** One consent record (decisions.md, "Consent"); `ip` and `form_id` only when known. */
export function consentRecord(source: ConsentSource, extra: { ip?: string | null; formId?: string | null } = {}, at = new Date()): ConsentRecord {
  return { source, at: at.toISOString(), ...(extra.ip ? { ip: extra.ip } : {}), ...(extra.formId ? { form_id: extra.formId } : {}) };
}

/** A contact's records with one more, the oldest dropped past MAX_CONSENT_RECORDS. */
export function withConsent(current: unknown, record: ConsentRecord): ConsentRecord[] {
  const list = Array.isArray(current) ? (current as ConsentRecord[]) : [];
  return [...list, record].slice(-MAX_CONSENT_RECORDS);
}

/**
 * SQL (text) appending the JSON array `entry` (one record, a parameter) to the jsonb `column`, the
 * oldest dropped once it holds MAX_CONSENT_RECORDS: for the set-based writes (imports, forms).
 */
export const appendConsentSql = (column: string, entry: string) =>
  `(CASE WHEN jsonb_array_length(${column}) >= ${MAX_CONSENT_RECORDS} THEN ${column} - 0 ELSE ${column} END) || ${entry}`;
