import { z } from "zod";
import { emailDocument } from "@/lib/email-doc/document";
import { dateTime, id, limits, requiredText } from "./common";

/** A saved part of an email is a header, a footer, or anything else worth reusing. */
export const MAX_SECTIONS = 200;

const sectionKind = z.enum(["header", "footer", "content"]);

export const sectionInput = z.object({
  name: requiredText(limits.name),
  kind: sectionKind.optional().meta({ description: "Default `content`." }),
  content_json: emailDocument.meta({ description: "Its blocks, inserted into an email where it is used (copied: editing one changes neither)." }),
});
export type SectionInput = z.infer<typeof sectionInput>;

export const updateSectionInput = sectionInput.partial();
export type UpdateSectionInput = z.infer<typeof updateSectionInput>;

export const section = z
  .object({ id, name: z.string(), kind: sectionKind, content_json: emailDocument, created_at: dateTime, updated_at: dateTime })
  .meta({ id: "Section" });
export type SectionRecord = z.infer<typeof section>;
