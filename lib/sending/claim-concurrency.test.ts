import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";
import { settledOrBlocked } from "@/lib/testing/blocked";
import { seedSegment, verifiedDomain } from "@/lib/testing/sending-fixtures";
import { claimDueEmails } from "./claim";
import { startBroadcast } from "./fan-out";

let org: TestOrg;
let other: pg.Client;
beforeAll(async () => {
  org = await createTestOrg();
  other = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await other.connect();
});
afterAll(() => other.end());

/** A relay broadcast (no inbox, a verified domain) of `n` recipients, fanned out: `n` queued emails. */
async function relayBroadcast(n: number) {
  await verifiedDomain(org.organizationId, "relay-claims.test");
  const { segmentId } = await seedSegment(
    org.organizationId,
    Array.from({ length: n }, () => ({})),
  );
  const { id } = await db.broadcast.create({
    data: {
      organization_id: org.organizationId,
      name: "Claims",
      subject: "Hello",
      from_email: "news@relay-claims.test",
      html_content: "<p>Hello</p>",
      segment_id: segmentId,
      sending_speed: "instant",
      status: "scheduled",
      scheduled_at: new Date(),
    },
  });
  expect(await startBroadcast(id)).toBe("started");
  return id;
}

describe("two workers claiming one broadcast's relay emails at once", () => {
  it("the second takes other emails than the claim in progress, without waiting for it", async () => {
    const broadcastId = await relayBroadcast(10);
    // Another worker's claim, not yet committed: it holds its emails' row locks and has written their claims.
    await other.query("BEGIN");
    const { rows: held } = await other.query<{ id: string }>("SELECT id FROM emails WHERE broadcast_id = $1 ORDER BY id LIMIT 5 FOR NO KEY UPDATE", [
      broadcastId,
    ]);
    await other.query("INSERT INTO email_claims (email_id, locked_until) SELECT unnest($1::uuid[]), now() + interval '10 seconds'", [held.map((r) => r.id)]);
    const [{ pid }] = (await other.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows;
    try {
      // Before: this claim read the same first emails, and its insert waited for the other's commit to get none of them.
      const outcome = await settledOrBlocked(claimDueEmails({ batchSize: 10, leaseMs: 10_000, paceScale: 1, organizationIds: [org.organizationId] }), pid);
      expect(outcome).not.toBe("blocked");
      const claimed = outcome === "blocked" ? [] : outcome.settled.map((c) => c.id);
      const all = await db.email.findMany({ where: { broadcast_id: broadcastId }, select: { id: true } });
      const free = all.map((e) => e.id).filter((id) => !held.some((h) => h.id === id));
      expect(claimed.sort()).toEqual(free.sort());
    } finally {
      await other.query("ROLLBACK");
      await db.broadcast.update({ where: { id: broadcastId }, data: { status: "cancelled" } });
    }
  });
});
