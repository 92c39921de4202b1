import type { EmailDocument } from "@/lib/email-doc/document";

/** The document as a form keeps it: its JSON text, "" for none. */
export const documentText = (doc: EmailDocument | null | undefined) => (doc ? JSON.stringify(doc) : "");

export const documentOf = (text: string): EmailDocument | null => (text ? (JSON.parse(text) as EmailDocument) : null);
