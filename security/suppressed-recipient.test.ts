import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestOrg, expectError, type TestOrg } from "@/lib/testing/api";
import { verifiedDomain } from "@/lib/testing/sending-fixtures";

// An address that bounced or complained must get nothing more, and the caller must know: a 201
// for an email that is then cancelled in silence reads as "sent".

describe("suppressed recipients", () => {
  let org: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg("Sender");
    await verifiedDomain(org.organizationId, "sender.example");
  });

  it("answers 422 RECIPIENT_SUPPRESSED to POST /v1/emails, says why and since when, and queues nothing", async () => {
    const since = new Date("2026-10-01T08:00:00.000Z");
    await db.suppression.create({ data: { organization_id: org.organizationId, email: "gone@example.test", reason: "complaint", created_at: since } });
    const answer = await org.owner.api.post("/v1/emails", { from: "hi@sender.example", to: "Gone@Example.test", subject: "Hi", text: "Hi" });
    const error = expectError(answer, 422, "RECIPIENT_SUPPRESSED");
    expect(error.details).toEqual([
      { path: "to", message: "is suppressed", address: "gone@example.test", reason: "complaint", suppressed_at: since.toISOString() },
    ]);
    expect(await db.email.count({ where: { organization_id: org.organizationId } })).toBe(0);

    // Another organization's suppression list is its own.
    const other = await createTestOrg("Other");
    await verifiedDomain(other.organizationId, "other.example");
    expect((await other.owner.api.post("/v1/emails", { from: "hi@other.example", to: "gone@example.test", subject: "Hi", text: "Hi" })).status).toBe(201);
  });

  it("shows the suppression on the contact: whether, why and since when", async () => {
    const since = new Date("2026-09-15T12:00:00.000Z");
    const { body: contact } = await org.owner.api.post("/v1/contacts", { email: "bounced@example.test" });
    expect(contact.suppression).toBeNull();
    await db.suppression.create({ data: { organization_id: org.organizationId, email: "bounced@example.test", reason: "hard_bounce", created_at: since } });
    const expected = { reason: "hard_bounce", suppressed_at: since.toISOString() };
    expect((await org.owner.api.get(`/v1/contacts/${contact.id}`)).body.suppression).toEqual(expected);
    const page = await org.owner.api.get("/v1/contacts?limit=10&search=bounced");
    expect(page.body.contacts[0].suppression).toEqual(expected);
    const streamed = await org.owner.api.get("/v1/contacts?search=bounced");
    expect(streamed.body.contacts[0].suppression).toEqual(expected);
    expect((await org.owner.api.get("/v1/contacts?limit=10&search=nobody")).body.contacts).toEqual([]);
  });
});
