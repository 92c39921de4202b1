import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";
import { seedSegment, sinkInbox, verifiedDomain } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { startBroadcast } from "./fan-out";
import { createSender, type Sender } from "./sender";

let stalled: SmtpSink;
let fast: SmtpSink;
let org: TestOrg;
beforeAll(async () => {
  stalled = await startSmtpSink({ parse: false });
  fast = await startSmtpSink({ parse: false });
  org = await createTestOrg();
  await verifiedDomain(org.organizationId, "neighbour.test");
});
afterAll(async () => {
  await stalled.close();
  await fast.close();
});

async function broadcast(count: number, tag: string, data: { inbox_id?: string } = {}) {
  const { segmentId, contacts } = await seedSegment(
    org.organizationId,
    Array.from({ length: count }, (_, i) => ({ email: `${tag}-${i}-${org.organizationId.slice(0, 8)}@example.test` })),
  );
  const { id } = await db.broadcast.create({
    data: {
      organization_id: org.organizationId,
      name: tag,
      subject: "Hello",
      from_email: "news@neighbour.test",
      html_content: "<p>Hello</p>",
      segment_id: segmentId,
      sending_speed: "instant",
      status: "scheduled",
      scheduled_at: new Date(),
      ...data,
    },
  });
  expect(await startBroadcast(id)).toBe("started");
  return { id, recipients: contacts.map((c) => c.email) };
}

/** The worker's sending loop (worker/tasks.ts): three lanes of dispatchOnce, 250 ms apart when one claimed nothing. */
function lanes(sender: Sender) {
  let running = true;
  const lane = async () => {
    while (running) if ((await sender.dispatchOnce()) === 0) await new Promise((resolve) => setTimeout(resolve, 250));
  };
  const all = Promise.all([lane(), lane(), lane()]);
  return async () => {
    running = false;
    await sender.stop();
    await all;
  };
}

describe("a destination whose queue is full beside others", () => {
  it("does not hold back the first emails of another inbox or of the idle relay: they are claimed while its queue has not drained at all", async () => {
    stalled.hold();
    const slowInbox = await sinkInbox(org.organizationId, stalled);
    const fastInbox = await sinkInbox(org.organizationId, fast);
    const slow = await broadcast(300, "slow", { inbox_id: slowInbox.id });
    const sender = createSender({ organizationId: org.organizationId, relayUrl: `smtp://${fast.host}:${fast.port}`, batchSize: 100 });
    const stop = lanes(sender);
    try {
      // Its five connections each hold an unanswered message, and its queue holds more: full, never draining.
      await expect.poll(() => stalled.unanswered(), { timeout: 20_000 }).toBe(5);
      await expect.poll(() => sender.stats().waiting, { timeout: 20_000 }).toBeGreaterThan(0);
      const waitingBefore = sender.stats().waiting;

      const viaRelay = await broadcast(3, "relay");
      const viaInbox = await broadcast(3, "inbox", { inbox_id: fastInbox.id });
      const arrived = () => fast.messages.filter((m) => [...viaRelay.recipients, ...viaInbox.recipients].includes(m.envelopeTo[0])).length;
      await expect.poll(arrived, { timeout: 20_000 }).toBe(6);

      // Nothing of the stalled server's queue moved meanwhile: they did not wait for it to drain.
      expect(stalled.messages).toHaveLength(0);
      expect(sender.stats().waiting).toBe(waitingBefore);
    } finally {
      stalled.release();
      await stop();
      await sender.close();
      await db.broadcast.update({ where: { id: slow.id }, data: { status: "cancelled" } });
    }
  });
});
