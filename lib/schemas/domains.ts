import { z } from "zod";
import { DomainStatus } from "@/lib/generated/prisma/enums";
import { isDomainName, normalizeDomainName } from "@/lib/dns/hostname";
import { dateTime, id } from "./common";

export const domainName = z
  .string()
  .max(300)
  .overwrite(normalizeDomainName)
  .refine(isDomainName, "must be a domain name such as example.com")
  .meta({ description: "Stored lowercase, without a trailing dot; international names in punycode." });

export const createDomainInput = z.object({ name: domainName });
export type CreateDomainInput = z.infer<typeof createDomainInput>;

export const dnsRecord = z.object({
  type: z.literal("TXT"),
  name: z.string().meta({ description: "Where to publish the record." }),
  value: z.string(),
  purpose: z.enum(["ownership", "dkim", "spf"]),
});
export type DnsRecord = z.infer<typeof dnsRecord>;

export const domain = z.object({
  id,
  organization_id: id,
  name: z.string(),
  status: z.enum(DomainStatus),
  records: z.array(dnsRecord).meta({ description: "The DNS records to publish: ownership proves the domain, DKIM and SPF let mail from it be trusted." }),
  verified_at: dateTime.nullable(),
  last_checked_at: dateTime.nullable(),
  created_at: dateTime,
  updated_at: dateTime,
});

export const verifiedDomain = domain.extend({
  verification: z.object({
    found: z.boolean(),
    checked_name: z.string(),
    expected_value: z.string(),
    reason: z.string().nullable().meta({ description: "Why the ownership record was not found; null when it was." }),
  }),
});
