import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealSecret } from "@/lib/crypto/secret-box";
import { createTestOrg } from "@/lib/testing/api";
import { settledOrBlocked } from "@/lib/testing/blocked";
import { addInbox } from "@/lib/testing/sequence-fixtures";
import { claimInboxes } from "./claim-inboxes";

let other: pg.Client;
beforeAll(async () => {
  other = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await other.connect();
});
afterAll(() => other.end());

describe("claiming inboxes to poll while another worker claims", () => {
  it("claims nothing this round instead of waiting (holding a connection) for the other claim, and claims once it is done", async () => {
    const { organizationId } = await createTestOrg();
    const inbox = await addInbox(organizationId, { imap: { host: "127.0.0.1", port: 1, username: "sam", password_encrypted: sealSecret("secret") } });
    const options = { limit: 1, intervalMs: 0, deadlineMs: 1_000, organizationPolls: 2, organizationIds: [organizationId] };
    // Another worker's claim in progress: it holds the claims' lock until it commits.
    await other.query("BEGIN");
    await other.query("SELECT pg_advisory_xact_lock(hashtext('replies:claim-inboxes'))");
    const [{ pid }] = (await other.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows;
    try {
      const outcome = await settledOrBlocked(claimInboxes(options), pid);
      expect(outcome).toEqual({ settled: [] });
    } finally {
      await other.query("ROLLBACK");
    }
    expect((await claimInboxes(options)).map((i) => i.id)).toEqual([inbox.id]);
  });
});
