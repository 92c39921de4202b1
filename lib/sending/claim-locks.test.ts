import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";
import { seedSegment, sinkInbox } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { claimDueEmails } from "./claim";
import { startBroadcast } from "./fan-out";

let sink: SmtpSink;
let org: TestOrg;
beforeAll(async () => {
  sink = await startSmtpSink({ parse: false });
  org = await createTestOrg();
});
afterAll(() => sink.close());

describe("claiming an inbox's emails while its emails are being written", () => {
  it("does not skip the inbox whose row a writer's foreign key check holds (a fan-out chunk, a sequence step, a transactional email)", async () => {
    const inbox = await sinkInbox(org.organizationId, sink);
    const { segmentId } = await seedSegment(
      org.organizationId,
      Array.from({ length: 5 }, () => ({})),
    );
    const { id } = await db.broadcast.create({
      data: {
        organization_id: org.organizationId,
        name: "Locks",
        subject: "Hello",
        from_email: inbox.from_email,
        inbox_id: inbox.id,
        html_content: "<p>Hello</p>",
        segment_id: segmentId,
        sending_speed: "instant",
        status: "scheduled",
        scheduled_at: new Date(),
      },
    });
    expect(await startBroadcast(id)).toBe("started");

    // What every insert of an email sent from the inbox takes until it commits: a KEY SHARE lock
    // on the inbox's row (the foreign key's check). A fan-out chunk of 5 000 holds it for seconds.
    const writer = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await writer.connect();
    try {
      await writer.query("BEGIN");
      await writer.query("SELECT 1 FROM inboxes WHERE id = $1 FOR KEY SHARE", [inbox.id]);
      const claimed = await claimDueEmails({ batchSize: 10, leaseMs: 10_000, paceScale: 1, organizationIds: [org.organizationId] });
      expect(claimed.map((c) => c.inbox_id)).toEqual(Array.from({ length: 5 }, () => inbox.id));
    } finally {
      await writer.query("ROLLBACK");
      await writer.end();
      await db.broadcast.update({ where: { id }, data: { status: "cancelled" } });
    }
  });
});
