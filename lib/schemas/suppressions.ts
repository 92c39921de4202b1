import { z } from "zod";
import { SuppressionReason } from "@/lib/generated/prisma/enums";
import { dateTime, id, limits, text } from "./common";
import { contactEmail } from "./contacts";

const suppressionReason = z.enum(SuppressionReason).meta({
  id: "SuppressionReason",
  description:
    "hard_bounce: the address does not exist or refuses for good. soft_bounce: three temporary failures in a row. " +
    "complaint: the recipient marked an email as spam. unsubscribe: unsubscribed while not a contact. manual: added by hand or by API.",
});

export const suppression = z.object({
  id,
  organization_id: id,
  email: z.string(),
  reason: suppressionReason,
  email_id: id.nullable().meta({ description: "The email whose bounce, complaint or unsubscription caused it; null when added by hand." }),
  created_at: dateTime,
});
suppression.register(z.globalRegistry, { id: "Suppression" });

export const listSuppressionsQuery = z.object({
  reason: suppressionReason.optional(),
  search: text(limits.email).optional().meta({ description: "Part of the address, case-insensitive." }),
});
export type ListSuppressionsQuery = z.infer<typeof listSuppressionsQuery>;

export const MAX_SUPPRESSIONS_PER_REQUEST = 1000;

export const addSuppressionsInput = z.object({
  emails: z
    .array(contactEmail)
    .min(1)
    .max(MAX_SUPPRESSIONS_PER_REQUEST)
    .meta({ description: `1 to ${MAX_SUPPRESSIONS_PER_REQUEST} addresses; compared case-insensitively, repeats counted once.` }),
});
export type AddSuppressionsInput = z.infer<typeof addSuppressionsInput>;

export const addedSuppressions = z.object({
  added: z.number().int().meta({ description: "Addresses newly suppressed (reason `manual`)." }),
  total: z.number().int().meta({ description: "Distinct addresses received; those already suppressed keep their reason." }),
});

export const suppressionParams = z.object({
  email: text(limits.email).min(1).meta({ description: "The suppressed address, URL-encoded." }),
});
