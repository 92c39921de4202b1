import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { contactEvent, MAX_EVENTS_PER_BATCH } from "@/lib/schemas/events";
import { webhookEventTypes } from "@/lib/schemas/webhooks";
import { createTestOrg, expectError, randomId, type TestOrg } from "@/lib/testing/api";
import { dispatchEventsOf } from "@/lib/testing/events";
import { addTestWebhook } from "@/lib/testing/webhook-fixtures";

const paths = (body: { details?: { path: string }[] }) => (body.details ?? []).map((d) => d.path);

describe("custom events", () => {
  let org: TestOrg;
  let other: TestOrg;
  let contactId: string;
  let theirs: string;
  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
    contactId = (await org.owner.api.post("/v1/contacts", { email: "known@events.test" })).body.id;
    theirs = (await other.owner.api.post("/v1/contacts", { email: "theirs@events.test" })).body.id;
  });

  const customEvents = (organizationId: string) => db.event.findMany({ where: { organization_id: organizationId, source: "api" }, orderBy: { id: "asc" } });

  describe("POST /v1/events", () => {
    it("records an event for a contact_id, announced, and answers 202 with its id", async () => {
      const answer = await org.owner.api.post("/v1/events", { name: "purchase", contact_id: contactId, properties: { amount: 42, items: [{ sku: "a-1" }] } });
      expect(answer.status).toBe(202);
      expect(Object.keys(answer.body)).toEqual(["id"]);
      const row = await db.event.findUniqueOrThrow({ where: { id: answer.body.id } });
      expect(row).toMatchObject({
        organization_id: org.organizationId,
        contact_id: contactId,
        name: "purchase",
        source: "api",
        properties: { amount: 42, items: [{ sku: "a-1" }] },
      });
      expect(await db.eventOutbox.count({ where: { event_id: row.id } })).toBe(1);
    });

    it("creates the contact of an unknown email, subscribed, and finds it next time", async () => {
      const first = await org.owner.api.post("/v1/events", { name: "signed_up", email: "  New.Person@Events.test " });
      expect(first.status).toBe(202);
      const contact = await db.contact.findFirstOrThrow({ where: { organization_id: org.organizationId, email: "new.person@events.test" } });
      expect(contact.subscribed).toBe(true);
      const second = await org.owner.api.post("/v1/events", { name: "logged_in", email: "new.person@events.test", occurred_at: "2026-01-02T03:04:05.000Z" });
      const rows = await db.event.findMany({ where: { contact_id: contact.id }, orderBy: { id: "asc" } });
      expect(rows.map((r) => [r.name, r.source])).toEqual([
        ["contact.created", "contacts"],
        ["signed_up", "api"],
        ["logged_in", "api"],
      ]);
      expect(rows[2]).toMatchObject({ id: second.body.id, occurred_at: new Date("2026-01-02T03:04:05.000Z") });
    });

    it("refuses what is not one event, naming the field, and records nothing", async () => {
      const before = (await customEvents(org.organizationId)).length;
      const cases: [unknown, string][] = [
        [{ name: "purchase" }, "email"],
        [{ name: "purchase", email: "a@events.test", contact_id: contactId }, "email"],
        [{ name: "email.opened", contact_id: contactId }, "name"],
        [{ name: "Contact.created", contact_id: contactId }, "name"],
        [{ name: "automation.started", contact_id: contactId }, "name"],
        [{ name: "", contact_id: contactId }, "name"],
        [{ name: "has space", contact_id: contactId }, "name"],
        [{ name: "x".repeat(101), contact_id: contactId }, "name"],
        [{ name: "purchase", email: "not an email" }, "email"],
        [{ name: "purchase", contact_id: "42" }, "contact_id"],
        [{ name: "purchase", contact_id: contactId, properties: ["a"] }, "properties"],
        [{ name: "purchase", contact_id: contactId, properties: { note: "nul \u0000 here" } }, "properties"],
        [{ name: "purchase", contact_id: contactId, properties: { blob: "x".repeat(40_000) } }, "properties"],
        [{ name: "purchase", contact_id: contactId, properties: { a: { b: { c: { d: { e: { f: { g: { h: { i: 1 } } } } } } } } } }, "properties"],
        [{ name: "purchase", contact_id: contactId, occurred_at: new Date(Date.now() + 3 * 86_400_000).toISOString() }, "occurred_at"],
        [{ name: "purchase", contact_id: contactId, occurred_at: "yesterday" }, "occurred_at"],
      ];
      for (const [body, path] of cases) {
        const error = expectError(await org.owner.api.post("/v1/events", body), 400, "VALIDATION_ERROR");
        expect(paths(error), JSON.stringify(body).slice(0, 80)).toContain(path);
      }
      expect(await customEvents(org.organizationId)).toHaveLength(before);
    });

    it("answers 404 for a contact of another organization or none", async () => {
      expectError(await org.owner.api.post("/v1/events", { name: "purchase", contact_id: theirs }), 404, "NOT_FOUND");
      expectError(await org.owner.api.post("/v1/events", { name: "purchase", contact_id: randomId() }), 404, "NOT_FOUND");
      expect(await db.event.count({ where: { contact_id: theirs, source: "api" } })).toBe(0);
    });

    it("announces custom events to no webhook, even one named like a webhook event", async () => {
      const hooked = await createTestOrg();
      await addTestWebhook(hooked.organizationId, [...webhookEventTypes]);
      const { body: contact } = await hooked.owner.api.post("/v1/contacts", { email: "c@events.test" });
      expect((await hooked.owner.api.post("/v1/events", { name: "broadcast.sent", contact_id: contact.id })).status).toBe(202);
      await dispatchEventsOf(hooked.organizationId);
      const deliveries = await db.webhookDelivery.findMany({ where: { organization_id: hooked.organizationId } });
      expect(deliveries.map((d) => d.event_type)).toEqual(["contact.created"]);
    });
  });

  describe("POST /v1/events/batch", () => {
    it("records up to a thousand events in one request, answering their ids in input order", async () => {
      const events = Array.from({ length: MAX_EVENTS_PER_BATCH }, (_, i) =>
        i % 2 === 0
          ? { name: "page_view", contact_id: contactId, properties: { i } }
          : { name: "page_view", email: `batch-${i % 10}@events.test`, properties: { i } },
      );
      const answer = await org.owner.api.post("/v1/events/batch", { events });
      expect(answer.status).toBe(202);
      expect(answer.body.data).toHaveLength(MAX_EVENTS_PER_BATCH);
      const rows = await db.event.findMany({ where: { id: { in: answer.body.data.map((d: { id: string }) => d.id) } } });
      const byId = new Map(rows.map((r) => [r.id, r]));
      expect(answer.body.data.map((d: { id: string }) => (byId.get(d.id)!.properties as { i: number }).i)).toEqual(events.map((_, i) => i));
      // Five new addresses, each created once.
      expect(await db.contact.count({ where: { organization_id: org.organizationId, email: { startsWith: "batch-" } } })).toBe(5);
    });

    it("validates the batch whole: 400 naming the index, or 404 naming a foreign contact, and nothing is recorded", async () => {
      const before = (await customEvents(org.organizationId)).length;
      const ok = { name: "purchase", contact_id: contactId };
      const invalid = expectError(
        await org.owner.api.post("/v1/events/batch", { events: [ok, ok, ok, { name: "email.sent", contact_id: contactId }] }),
        400,
        "VALIDATION_ERROR",
      );
      expect(paths(invalid)).toEqual(["events.3.name"]);
      expectError(await org.owner.api.post("/v1/events/batch", { events: [] }), 400, "VALIDATION_ERROR");
      const tooMany = Array.from({ length: MAX_EVENTS_PER_BATCH + 1 }, () => ok);
      expect(paths(expectError(await org.owner.api.post("/v1/events/batch", { events: tooMany }), 400, "VALIDATION_ERROR"))).toContain("events");
      const foreign = expectError(
        await org.owner.api.post("/v1/events/batch", { events: [{ name: "x", email: "never-created@events.test" }, ok, { name: "x", contact_id: theirs }] }),
        404,
        "NOT_FOUND",
      );
      expect(paths(foreign)).toEqual(["events.2.contact_id"]);
      expect(await db.contact.count({ where: { organization_id: org.organizationId, email: "never-created@events.test" } })).toBe(0);
      expect(await customEvents(org.organizationId)).toHaveLength(before);
    });
  });

  describe("GET /v1/contacts/{id}/events", () => {
    it("lists the contact's events newest first, built-in and custom, paged by cursor both ways", async () => {
      const { body: contact } = await org.owner.api.post("/v1/contacts", { email: "timeline@events.test" });
      const day = (n: number) => `2026-03-${String(n).padStart(2, "0")}T10:00:00.000Z`;
      await org.owner.api.post("/v1/events/batch", {
        events: [3, 1, 4, 2, 5].map((n) => ({ name: `step_${n}`, contact_id: contact.id, occurred_at: day(n), properties: { n } })),
      });
      const all = await org.owner.api.get(`/v1/contacts/${contact.id}/events`);
      expect(all.status).toBe(200);
      for (const item of all.body.data) contactEvent.parse(item);
      expect(Object.keys(all.body.data[1]).sort()).toEqual(["email_id", "id", "name", "occurred_at", "properties", "source"]);
      expect(all.body.data.map((e: { name: string }) => e.name)).toEqual(["contact.created", "step_5", "step_4", "step_3", "step_2", "step_1"]);
      expect(all.body.data[1]).toMatchObject({ properties: { n: 5 }, occurred_at: day(5), source: "api" });

      const first = await org.owner.api.get(`/v1/contacts/${contact.id}/events?limit=2`);
      expect(first.body).toMatchObject({ object: "list", has_more: true });
      const second = await org.owner.api.get(`/v1/contacts/${contact.id}/events?limit=2&after=${first.body.data[1].id}`);
      expect(second.body.data.map((e: { name: string }) => e.name)).toEqual(["step_4", "step_3"]);
      const back = await org.owner.api.get(`/v1/contacts/${contact.id}/events?limit=2&before=${second.body.data[0].id}`);
      expect(back.body.data.map((e: { id: string }) => e.id)).toEqual(first.body.data.map((e: { id: string }) => e.id));
      expect((await org.owner.api.get(`/v1/contacts/${contact.id}/events?limit=101`)).status).toBe(422);
      expect((await org.owner.api.get(`/v1/contacts/${contact.id}/events?after=${randomId()}`)).status).toBe(422);
    });

    it("answers 404 for another organization's contact, and never lists another organization's events", async () => {
      expectError(await org.owner.api.get(`/v1/contacts/${theirs}/events`), 404, "NOT_FOUND");
      expectError(await org.owner.api.get(`/v1/contacts/${randomId()}/events`), 404, "NOT_FOUND");
      const ours = await org.owner.api.get(`/v1/contacts/${contactId}/events?limit=100`);
      const rows = await db.event.findMany({ where: { id: { in: ours.body.data.map((e: { id: string }) => e.id) } }, select: { organization_id: true } });
      expect(rows.every((r) => r.organization_id === org.organizationId)).toBe(true);
    });
  });
});
