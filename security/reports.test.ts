import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestOrg, expectError } from "@/lib/testing/api";

// Reports read across many rows at once; each statement must stay inside the caller's organization.

async function sentBroadcast(organizationId: string, contactIds: string[]) {
  const broadcast = await db.broadcast.create({
    data: { organization_id: organizationId, name: "Secret launch", subject: "S", from_email: "n@example.com", status: "sent", started_at: new Date() },
  });
  for (const contactId of contactIds) {
    await db.email.create({
      data: {
        organization_id: organizationId,
        message_id: `<${randomUUID()}@example.com>`,
        from_email: "n@example.com",
        to_email: `${randomUUID()}@example.net`,
        subject: "S",
        broadcast_id: broadcast.id,
        contact_id: contactId,
        status: "sent",
        sent_at: new Date(),
        opened_at: new Date(),
      },
    });
  }
  return broadcast.id;
}

describe("reports stay inside the organization", () => {
  it("answers 404 to another organization for a broadcast's report, recipients and saved segment, and writes nothing", async () => {
    const owner = await createTestOrg("Owner org");
    const attacker = await createTestOrg("Attacker org");
    const contact = await db.contact.create({ data: { organization_id: owner.organizationId, email: `${randomUUID()}@example.net` } });
    const broadcastId = await sentBroadcast(owner.organizationId, [contact.id]);

    expectError(await attacker.owner.api.get(`/v1/broadcasts/${broadcastId}/report`), 404, "NOT_FOUND");
    expectError(await attacker.owner.api.get(`/v1/broadcasts/${broadcastId}/recipients?event=opened`), 404, "NOT_FOUND");
    expectError(await attacker.owner.api.post(`/v1/broadcasts/${broadcastId}/recipients/segment`, { event: "opened" }), 404, "NOT_FOUND");
    expect(await db.segment.count({ where: { organization_id: attacker.organizationId } })).toBe(0);
    // The owner sees it all.
    expect((await owner.owner.api.get(`/v1/broadcasts/${broadcastId}/recipients?event=opened`)).body.data).toHaveLength(1);
  });

  it("never puts another organization's contact into a saved segment, even through an email that points at one", async () => {
    const org = await createTestOrg();
    const other = await createTestOrg();
    const own = await db.contact.create({ data: { organization_id: org.organizationId, email: `${randomUUID()}@example.net` } });
    const foreign = await db.contact.create({ data: { organization_id: other.organizationId, email: `${randomUUID()}@example.net`, first_name: "Mallory" } });
    const broadcastId = await sentBroadcast(org.organizationId, [own.id, foreign.id]);

    const saved = await org.owner.api.post(`/v1/broadcasts/${broadcastId}/recipients/segment`, { event: "opened" });
    expect(saved.status).toBe(201);
    expect(saved.body.contacts_count).toBe(1);
    const members = await db.segmentContact.findMany({ where: { segment_id: saved.body.id } });
    expect(members.map((m) => [m.contact_id, m.organization_id])).toEqual([[own.id, org.organizationId]]);
    // The list shows the email record, never the other organization's contact details.
    const listed = await org.owner.api.get(`/v1/broadcasts/${broadcastId}/recipients?event=opened`);
    const row = listed.body.data.find((r: { contact_id: string }) => r.contact_id === foreign.id);
    expect(row).toMatchObject({ first_name: null, last_name: null });
  });

  it("keeps the overview's warnings and counts to the caller's organization", async () => {
    const org = await createTestOrg();
    const other = await createTestOrg();
    await db.domain.create({ data: { organization_id: other.organizationId, name: "other.example", status: "failed", verification_token: "t" } });
    await sentBroadcast(other.organizationId, []);
    await db.email.create({
      data: {
        organization_id: other.organizationId,
        message_id: `<${randomUUID()}@x>`,
        from_email: "a@example.com",
        to_email: "b@example.net",
        subject: "S",
        status: "sent",
        sent_at: new Date(),
        complained_at: new Date(),
      },
    });
    const overview = await org.owner.api.get("/v1/reports/overview");
    expect(overview.status).toBe(200);
    expect(overview.body.warnings).toEqual([]);
    expect(overview.body.totals.sent).toBe(0);
  });
});
