import { csvDocument } from "@/lib/domain/csv";
import type { ImportContactsResult } from "@/lib/schemas/contacts";

/** The rows an import could not take, as the CSV the result screen offers for download. */
export function importErrorsCsv(errors: ImportContactsResult["errors"]): string {
  return csvDocument(
    ["row", "email", "error"],
    errors.map((e) => [e.row, e.email, e.error]),
  );
}
