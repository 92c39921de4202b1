// Writes what a DNS check of a domain would have found, for the e2e test of the domain page: the
// e2e server has no DNS server of ours to ask. Ownership, DKIM and DMARC verified; the return path's
// MX pending; its SPF record someone else's (a conflict). `npx tsx e2e/seed-domain-checks.ts <domain id>`.
import { db } from "@/lib/db";

async function main() {
  const id = process.argv[2];
  if (!id) throw new Error("usage: tsx e2e/seed-domain-checks.ts <domain id>");
  const domain = await db.domain.findUniqueOrThrow({ where: { id } });
  const at = new Date().toISOString();
  const verified = (found: string) => ({ status: "verified", found: [found], reason: null, checked_at: at });
  const theirs = "v=spf1 include:other-provider.example -all";
  await db.domain.update({
    where: { id },
    data: {
      status: "verified",
      verified_at: new Date(),
      dkim_verified_at: new Date(),
      last_checked_at: new Date(),
      record_checks: {
        records: {
          ownership: verified(`mailplatform-verification=${domain.verification_token}`),
          dkim: verified(`v=DKIM1; k=rsa; p=${domain.dkim_public_key}`),
          return_path: { status: "pending", found: [], reason: "no MX record found", checked_at: at },
          return_path_spf: { status: "mismatch", found: [theirs], reason: "records were found, but none has the expected value", checked_at: at },
          dmarc: verified("v=DMARC1; p=none"),
        },
        warnings: [
          {
            code: "SPF_CONFLICT",
            message: `${domain.return_path}.${domain.name} already has an SPF record that does not authorize our relay.`,
            found: [theirs],
          },
        ],
      },
    },
  });
  console.log(JSON.stringify({ ok: true }));
}

await main().finally(() => db.$disconnect());
