// Writes what a DNS check would have found for a domain whose ownership record and tracking CNAME
// are published, for the e2e test of the tracking subdomain: the e2e server has no DNS server of
// ours to ask. `npx tsx e2e/seed-tracking-check.ts <domain id>`.
import { db } from "@/lib/db";

async function main() {
  const id = process.argv[2];
  if (!id) throw new Error("usage: tsx e2e/seed-tracking-check.ts <domain id>");
  const domain = await db.domain.findUniqueOrThrow({ where: { id } });
  const at = new Date().toISOString();
  const verified = (found: string) => ({ status: "verified", found: [found], reason: null, checked_at: at });
  await db.domain.update({
    where: { id },
    data: {
      status: "verified",
      verified_at: new Date(),
      tracking_verified_at: new Date(),
      last_checked_at: new Date(),
      record_checks: {
        records: { ownership: verified(`mailplatform-verification=${domain.verification_token}`), tracking: verified("localhost") },
        warnings: [],
      },
    },
  });
  console.log(JSON.stringify({ ok: true }));
}

await main().finally(() => db.$disconnect());
