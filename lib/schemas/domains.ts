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

export const returnPathLabel = z
  .string()
  .max(63)
  .overwrite((value) => value.trim().toLowerCase())
  .regex(/^(?!-)[a-z0-9-]{1,63}(?<!-)$/, "must be one DNS label such as bounces")
  .meta({ description: "Label of the return-path subdomain (`bounces` → bounces.<domain>). Default: the server's `RETURN_PATH_LABEL`, `bounces`." });

const trackingSubdomain = z
  .string()
  .max(63)
  .overwrite((value) => value.trim().toLowerCase())
  .regex(/^(?!-)[a-z0-9-]{1,63}(?<!-)$/, "must be one DNS label such as links")
  .nullable()
  .meta({
    id: "TrackingSubdomain",
    description:
      "Tracking host label (`links` → links.<domain>), a CNAME to the app's host. Once it and the domain are verified, mail from the domain tracks on `https://<host>/`; links sent on a former host stop working.",
  });

export const createDomainInput = z.object({ name: domainName, return_path: returnPathLabel.optional(), tracking_subdomain: trackingSubdomain.optional() });
export type CreateDomainInput = z.infer<typeof createDomainInput>;

export const updateDomainInput = z.object({ tracking_subdomain: trackingSubdomain.optional() });
export type UpdateDomainInput = z.infer<typeof updateDomainInput>;

const recordPurposes = ["ownership", "dkim", "return_path", "return_path_spf", "dmarc", "tracking"] as const;
const recordStatuses = ["verified", "pending", "mismatch"] as const;

const dnsRecord = z.object({
  type: z.enum(["TXT", "MX", "CNAME"]),
  name: z.string().meta({ description: "Where to publish the record." }),
  value: z.string().meta({ description: "For MX, the host mail is sent to; publish it with `priority`." }),
  priority: z.number().int().optional().meta({ description: "MX only." }),
  purpose: z.enum(recordPurposes).meta({
    id: "DnsRecordPurpose",
    description:
      "ownership proves the domain; dkim signs its mail; return_path (MX) and return_path_spf receive and authorize the " +
      "envelope sender of relay mail (bounces come back there); dmarc tells receivers what to do with mail that fails " +
      "both; tracking (CNAME) serves links and the pixel on your own host. The DMARC value is a suggestion (start at `p=none`): " +
      "any one valid DMARC record counts.",
  }),
  status: z.enum(recordStatuses).meta({
    id: "DnsRecordStatus",
    description: "verified: published as expected. pending: not found yet. mismatch: something else is there (see `found`).",
  }),
  found: z.array(z.string()).meta({ description: "What the last lookup saw at that name (up to 10 values)." }),
  reason: z.string().nullable().meta({ description: "Why the record is not verified, when it is not." }),
  checked_at: dateTime.nullable(),
});
dnsRecord.register(z.globalRegistry, { id: "DnsRecord" });

const domainWarning = z.object({
  code: z.enum(["SPF_CONFLICT", "DMARC_MULTIPLE"]),
  message: z.string(),
  found: z.array(z.string()),
});

export const domain = z.object({
  id,
  organization_id: id,
  name: z.string(),
  status: z.enum(DomainStatus).meta({ description: "verified once the ownership record was seen; each record has its own status besides." }),
  return_path: z.string().meta({ description: "The return-path host, e.g. bounces.example.com." }),
  records: z.array(dnsRecord).meta({ description: "The DNS records to publish, each with the status of its last check." }),
  warnings: z
    .array(domainWarning)
    .meta({ description: "Problems the last check found that publishing our records alone does not fix (a conflicting SPF record, say)." }),
  dkim_signing: z.boolean().meta({ description: "True while the DKIM record is verified: only then is mail signed with the key." }),
  tracking_subdomain: z.string().nullable(),
  tracking_active: z.boolean().meta({ description: "True while the domain and its tracking CNAME are verified: only then do links use the tracking host." }),
  verified_at: dateTime.nullable(),
  last_checked_at: dateTime.nullable(),
  created_at: dateTime,
  updated_at: dateTime,
});
domain.register(z.globalRegistry, { id: "Domain" });

export const verifiedDomain = domain.extend({
  verification: z.object({
    found: z.boolean(),
    checked_name: z.string(),
    expected_value: z.string(),
    reason: z.string().nullable().meta({ description: "Why the ownership record was not found; null when it was." }),
  }),
});
