import type { EmailDocument } from "@/lib/email-doc/document";

/** JSON with object keys sorted, so the same document always reads the same (PostgreSQL's jsonb reorders keys). */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** The document as a form keeps it: its canonical JSON text, "" for none. */
export const documentText = (doc: EmailDocument | null | undefined) => (doc ? JSON.stringify(canonical(doc)) : "");

export const documentOf = (text: string): EmailDocument | null => (text ? (JSON.parse(text) as EmailDocument) : null);
