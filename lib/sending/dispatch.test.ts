import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestOrg } from "@/lib/testing/api";
import { seedSegment, verifiedDomain } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { startBroadcast } from "./fan-out";
import { createSender } from "./sender";

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.close());

describe("dispatchOnce: batches handed to the SMTP connections while earlier ones are still going out", () => {
  it("claims more only while few emails wait for a connection, and drain leaves every one sent and recorded once", async () => {
    const org = await createTestOrg();
    const organizationId = org.organizationId;
    await verifiedDomain(organizationId, "pipeline.test");
    const { segmentId, contacts } = await seedSegment(
      organizationId,
      Array.from({ length: 24 }, (_, i) => ({ email: `reader${i}@example.test`, first_name: `Reader ${i}` })),
    );
    const broadcast = await db.broadcast.create({
      data: {
        organization_id: organizationId,
        name: "Pipelined",
        subject: "Hello {{first_name}}",
        from_email: "news@pipeline.test",
        html_content: "<p>Hello {{first_name}}</p>",
        segment_id: segmentId,
        sending_speed: "instant",
        status: "scheduled",
        scheduled_at: new Date(),
      },
    });
    expect(await startBroadcast(broadcast.id)).toBe("started");

    const sender = createSender({ organizationId, relayUrl: `smtp://${sink.host}:${sink.port}`, batchSize: 5, maxQueued: 5 });
    const before = sink.messages.length;
    let claimed = 0;
    let rounds = 0;
    for (let n = await sender.dispatchOnce(); n > 0; n = await sender.dispatchOnce()) {
      claimed += n;
      rounds++;
      expect(n).toBeLessThanOrEqual(5);
      // Before claiming, it waited until fewer than 5 of the earlier rounds' emails were still undelivered.
      expect(sink.messages.length - before).toBeGreaterThanOrEqual(5 * (rounds - 1) - 4);
    }
    expect(rounds).toBe(5);
    await sender.drain();
    sender.close();

    expect(claimed).toBe(24);
    const received = sink.messages.slice(before).map((m) => m.envelopeTo[0]);
    expect(received.sort()).toEqual(contacts.map((c) => c.email).sort());
    const rows = await db.email.findMany({ where: { broadcast_id: broadcast.id } });
    expect(rows.every((row) => row.status === "sent" && row.locked_until === null)).toBe(true);
    expect(await db.broadcast.findUniqueOrThrow({ where: { id: broadcast.id } })).toMatchObject({ status: "sent", sent_count: 24 });
  });
});
