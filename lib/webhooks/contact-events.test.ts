import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";
import { dispatchEventsOf } from "@/lib/testing/events";
import { documentedPayload } from "@/lib/testing/webhook-payloads";
import { addTestWebhook } from "@/lib/testing/webhook-fixtures";

describe("contact events", () => {
  let org: TestOrg;
  let webhookId: string;

  beforeEach(async () => {
    org = await createTestOrg();
    webhookId = (await addTestWebhook(org.organizationId, ["contact.created", "contact.updated", "contact.subscribed", "contact.unsubscribed"])).id;
  });

  // Deliveries are queued by the events dispatcher (lib/events), as the worker's loop runs it.
  const payloads = async (type: string) => {
    await dispatchEventsOf(org.organizationId);
    return (await db.webhookDelivery.findMany({ where: { webhook_id: webhookId, event_type: type }, orderBy: { created_at: "asc" } })).map(
      (d) => documentedPayload(d.payload) as { type: string; created_at: string; data: Record<string, unknown> },
    );
  };

  it("emits contact.created with the contact as the API shows it", async () => {
    const created = await org.owner.api.post("/v1/contacts", { email: "new@example.net", first_name: "New", metadata: { plan: "pro" }, tags: ["vip"] });
    expect(created.status).toBe(201);
    const [event] = await payloads("contact.created");
    expect(event.type).toBe("contact.created");
    expect(event.data).toEqual(JSON.parse(JSON.stringify(created.body)));
  });

  it("emits contact.updated on every update and contact.unsubscribed when the contact unsubscribes", async () => {
    const { body: contact } = await org.owner.api.post("/v1/contacts", { email: "u@example.net" });
    await org.owner.api.put(`/v1/contacts/${contact.id}`, { first_name: "Una" });
    const unsubscribed = await org.owner.api.put(`/v1/contacts/${contact.id}`, { subscribed: false });
    await org.owner.api.put(`/v1/contacts/${contact.id}`, { subscribed: false });

    const updates = await payloads("contact.updated");
    expect(updates.map((e) => e.data.first_name)).toEqual(["Una", "Una", "Una"]);
    const unsubscriptions = await payloads("contact.unsubscribed");
    expect(unsubscriptions).toHaveLength(1);
    expect(unsubscriptions[0].data).toEqual(JSON.parse(JSON.stringify(unsubscribed.body)));
    expect(await payloads("contact.subscribed")).toEqual([]);
  });

  it("emits contact.subscribed when a contact is subscribed again, with the contact", async () => {
    const { body: contact } = await org.owner.api.post("/v1/contacts", { email: "again@example.net", subscribed: false });
    const resubscribed = await org.owner.api.put(`/v1/contacts/${contact.id}`, { subscribed: true });
    await org.owner.api.put(`/v1/contacts/${contact.id}`, { subscribed: true });
    const subscriptions = await payloads("contact.subscribed");
    expect(subscriptions).toHaveLength(1);
    expect(subscriptions[0]).toMatchObject({ type: "contact.subscribed", data: JSON.parse(JSON.stringify(resubscribed.body)) });
  });

  it("emits one contact.created per created contact of a bulk request, none for existing ones", async () => {
    await org.owner.api.post("/v1/contacts", { email: "old@example.net" });
    const bulk = await org.owner.api.post("/v1/contacts/bulk", {
      contacts: [{ email: "old@example.net" }, { email: "b1@example.net", first_name: "B" }, { email: "b2@example.net", subscribed: false }],
    });
    expect(bulk.body).toMatchObject({ imported: 2, total: 3 });
    const created = await payloads("contact.created");
    expect(created.map((e) => e.data.email).sort()).toEqual(["b1@example.net", "b2@example.net", "old@example.net"]);
    const b2 = created.find((e) => e.data.email === "b2@example.net")!.data;
    const { body: record } = await org.owner.api.get(`/v1/contacts/${b2.id}`);
    expect(b2).toEqual(JSON.parse(JSON.stringify(record)));
  });

  it("emits contact.created and contact.updated for a CSV import", async () => {
    const { body: existing } = await org.owner.api.post("/v1/contacts", { email: "kept@example.net", first_name: "Old" });
    const csv = "Email,First name\nkept@example.net,Renamed\nfresh1@example.net,F1\nfresh2@example.net,\n";
    const result = await org.owner.api.post("/v1/contacts/import", {
      file_content: Buffer.from(csv).toString("base64"),
      column_mappings: [
        { csv_column: "Email", property_name: "email" },
        { csv_column: "First name", property_name: "first_name" },
      ],
      handle_missing: "create",
    });
    expect(result.body).toMatchObject({ created: 2, updated: 1 });
    const created = (await payloads("contact.created")).filter((e) => e.data.email !== "kept@example.net");
    expect(created.map((e) => e.data.email).sort()).toEqual(["fresh1@example.net", "fresh2@example.net"]);
    const { body: fresh1 } = await org.owner.api.get(`/v1/contacts/${created.find((e) => e.data.email === "fresh1@example.net")!.data.id}`);
    expect(created.find((e) => e.data.email === "fresh1@example.net")!.data).toEqual(JSON.parse(JSON.stringify(fresh1)));
    const updated = await payloads("contact.updated");
    expect(updated).toHaveLength(1);
    const { body: after } = await org.owner.api.get(`/v1/contacts/${existing.id}`);
    expect(updated[0].data).toEqual(JSON.parse(JSON.stringify(after)));
    expect(after.first_name).toBe("Renamed");
  });

  it("queues nothing for an organization without webhooks, or for failed writes", async () => {
    const other = await createTestOrg();
    await other.owner.api.post("/v1/contacts", { email: "x@example.net" });
    await dispatchEventsOf(other.organizationId);
    expect(await db.webhookDelivery.count({ where: { organization_id: other.organizationId } })).toBe(0);
    await org.owner.api.post("/v1/contacts", { email: "dup@example.net" });
    const duplicate = await org.owner.api.post("/v1/contacts", { email: "dup@example.net" });
    expect(duplicate.status).toBe(409);
    expect((await payloads("contact.created")).filter((e) => e.data.email === "dup@example.net")).toHaveLength(1);
  });
});
