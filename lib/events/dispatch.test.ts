import pg from "pg";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { createTestOrg } from "@/lib/testing/api";
import { dispatchEventsOf } from "@/lib/testing/events";
import { webhookConsumer } from "@/lib/webhooks/announce";
import type { EventConsumer } from "./consumer";
import { dispatchEvents } from "./dispatch";
import { claimAnnouncements } from "./outbox";
import { recordEvents } from "./record";
import type { NewEvent } from "./types";
import { addTestWebhook } from "@/lib/testing/webhook-fixtures";

const broadcastSent = (organizationId: string, n: number): NewEvent[] =>
  Array.from({ length: n }, (_, i) => ({ organizationId, name: "broadcast.sent", source: "broadcasts", payload: { n: i } }));

async function addWebhook(organizationId: string) {
  return addTestWebhook(organizationId, ["broadcast.sent"]);
}

const waiting = (organizationId: string) => db.eventOutbox.count({ where: { organization_id: organizationId } });

/** Deliveries per event of the organization: every event must have exactly one per webhook. */
async function deliveriesPerEvent(organizationId: string) {
  const rows = await db.$queryRaw<{ event_id: string; n: number }[]>`
    SELECT e.id AS event_id, count(d.id)::int AS n FROM events e
    LEFT JOIN webhook_deliveries d ON d.event_id = e.id AND d.organization_id = e.organization_id
    WHERE e.organization_id = ${organizationId}::uuid GROUP BY e.id`;
  return rows.map((row) => row.n);
}

/** A consumer that ends its own database connection mid-transaction, as a worker killed mid-dispatch would. */
const dies: EventConsumer = {
  name: "dies",
  consume: async (tx) => {
    await tx.$queryRaw`SELECT pg_terminate_backend(pg_backend_pid())`;
  },
};

describe("event dispatch", () => {
  let organizationId: string;
  beforeEach(async () => {
    organizationId = (await createTestOrg()).organizationId;
  });

  it("records and announces each event in the caller's transaction: a rollback leaves neither", async () => {
    await expect(
      db.$transaction(async (tx) => {
        await recordEvents(tx, broadcastSent(organizationId, 3));
        throw new Error("rollback");
      }),
    ).rejects.toThrow("rollback");
    expect(await db.event.count({ where: { organization_id: organizationId } })).toBe(0);
    expect(await waiting(organizationId)).toBe(0);

    const ids = await recordEvents(db, broadcastSent(organizationId, 3));
    expect(ids).toHaveLength(3);
    const rows = await db.event.findMany({ where: { organization_id: organizationId }, orderBy: { id: "asc" } });
    // Answered in input order.
    expect(ids.map((id) => rows.find((r) => r.id === id)!.payload)).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }]);
    expect(await waiting(organizationId)).toBe(3);
  });

  it("delivers each event exactly once when a dispatch dies between the consumers' writes and its commit", async () => {
    await addWebhook(organizationId);
    await recordEvents(db, broadcastSent(organizationId, 250));

    // The webhook consumer writes its deliveries, then the connection dies before the commit.
    await expect(dispatchEvents({ organizationIds: [organizationId], consumers: [webhookConsumer, dies] })).rejects.toThrow();
    expect(await db.webhookDelivery.count({ where: { organization_id: organizationId } })).toBe(0);
    expect(await waiting(organizationId)).toBe(250);

    // Four dispatchers at once, in small batches, then whatever is left.
    await Promise.all(Array.from({ length: 4 }, () => dispatchEvents({ organizationIds: [organizationId], batchSize: 20 })));
    await dispatchEventsOf(organizationId);
    expect(await waiting(organizationId)).toBe(0);
    const perEvent = await deliveriesPerEvent(organizationId);
    expect(perEvent).toHaveLength(250);
    expect(perEvent.every((n) => n === 1)).toBe(true);
    expect(await dispatchEvents({ organizationIds: [organizationId] })).toBe(0);
  });

  it("does not wait for another tenant's open transaction, and sees its events once it commits", async () => {
    const other = (await createTestOrg()).organizationId;
    const long = new pg.Client({ connectionString: env.databaseUrl });
    await long.connect();
    try {
      await long.query("BEGIN");
      await long.query(
        `INSERT INTO events (organization_id, name, source, occurred_at) SELECT $1, 'broadcast.sent', 'broadcasts', now() FROM generate_series(1, 500)`,
        [other],
      );
      await long.query("INSERT INTO event_outbox (organization_id, event_id) SELECT organization_id, id FROM events WHERE organization_id = $1", [other]);
      await recordEvents(db, broadcastSent(organizationId, 5));

      expect(await dispatchEvents({ organizationIds: [organizationId, other] })).toBe(5);
      expect(await dispatchEvents({ organizationIds: [organizationId, other] })).toBe(0);
      await long.query("COMMIT");
      expect(await dispatchEventsOf(other)).toBe(500);
    } finally {
      await long.end();
    }
  });

  it("shares a round between organizations: one with thousands waiting does not hold back one with a few", async () => {
    const busy = (await createTestOrg()).organizationId;
    await recordEvents(db, broadcastSent(busy, 2000));
    await recordEvents(db, broadcastSent(organizationId, 7));
    const claimed = await db.$transaction((tx) => claimAnnouncements(tx, [busy, organizationId], 50));
    const per = (id: string) => claimed.keys.filter((k) => k.organization_id === id).length;
    expect(per(busy)).toBe(50);
    expect(per(organizationId)).toBe(7);

    expect(await dispatchEvents({ organizationIds: [busy, organizationId], batchSize: 100 })).toBe(57);
    expect(await waiting(organizationId)).toBe(0);
    expect(await waiting(busy)).toBe(1950);
  });

  it("holds back only the organization whose event breaks a consumer", async () => {
    const broken = (await createTestOrg()).organizationId;
    await addWebhook(organizationId);
    await recordEvents(db, broadcastSent(organizationId, 3));
    await recordEvents(db, broadcastSent(broken, 3));
    const picky: EventConsumer = {
      name: "picky",
      consume: async (_tx, batch) => {
        if (batch.organizationIds.includes(broken)) throw new Error("cannot take this one");
      },
    };
    expect(await dispatchEvents({ organizationIds: [organizationId, broken], consumers: [webhookConsumer, picky] })).toBe(3);
    expect(await db.webhookDelivery.count({ where: { organization_id: organizationId } })).toBe(3);
    expect(await waiting(broken)).toBe(3);
  });
});
