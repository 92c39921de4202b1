import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { MAX_CONSENT_RECORDS } from "@/lib/services/consent";
import { createTestOrg, request, sessionCookie, type TestOrg } from "@/lib/testing/api";

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
type Consent = { source: string; at: string; ip?: string; form_id?: string };

// decisions.md, "Consent": every path that subscribes a contact leaves a record of how and when.
describe("consent records", () => {
  let org: TestOrg;
  let cookie: string;
  beforeAll(async () => {
    org = await createTestOrg();
    cookie = await sessionCookie(org.owner);
  });
  const consentOf = async (email: string) =>
    ((await db.contact.findFirstOrThrow({ where: { organization_id: org.organizationId, email } })).consent as Consent[]).map((c) => c.source);

  it("are made by the API (source api) and the dashboard's session (source dashboard), for subscribed contacts only", async () => {
    const created = await org.owner.api.post("/v1/contacts", { email: "api@example.test" });
    expect(created.body.consent).toEqual([{ source: "api", at: expect.stringMatching(ISO) }]);
    const fromDashboard = await request("POST", "/v1/contacts", { headers: { cookie }, body: { email: "dash@example.test" } });
    expect(fromDashboard.body.consent).toEqual([{ source: "dashboard", at: expect.stringMatching(ISO) }]);
    const unsubscribed = await org.owner.api.post("/v1/contacts", { email: "not@example.test", subscribed: false });
    expect(unsubscribed.body.consent).toEqual([]);
    // Shown by every read: one contact, the paged list and the streamed one.
    expect((await org.owner.api.get(`/v1/contacts/${created.body.id}`)).body.consent).toEqual(created.body.consent);
    const paged = await org.owner.api.get("/v1/contacts?limit=10&search=api%40");
    expect(paged.body.contacts[0].consent).toEqual(created.body.consent);
    const streamed = await org.owner.api.get("/v1/contacts?search=api%40");
    expect(streamed.body.contacts[0].consent).toEqual(created.body.consent);
  });

  it("are added when a contact subscribes again, not by other changes", async () => {
    const { body } = await org.owner.api.post("/v1/contacts", { email: "again@example.test", subscribed: false });
    await org.owner.api.put(`/v1/contacts/${body.id}`, { first_name: "Ann" });
    expect(await consentOf("again@example.test")).toEqual([]);
    await org.owner.api.put(`/v1/contacts/${body.id}`, { subscribed: true });
    await request("PUT", `/v1/contacts/${body.id}`, { headers: { cookie }, body: { subscribed: false } });
    await request("PUT", `/v1/contacts/${body.id}`, { headers: { cookie }, body: { subscribed: true } });
    await org.owner.api.put(`/v1/contacts/${body.id}`, { subscribed: true });
    expect(await consentOf("again@example.test")).toEqual(["api", "dashboard"]);
  });

  it("are made by bulk creation and by CSV imports (new subscribed contacts, and unsubscribed ones subscribed again)", async () => {
    await org.owner.api.post("/v1/contacts/bulk", { contacts: [{ email: "bulk@example.test" }, { email: "bulk-out@example.test", subscribed: false }] });
    expect(await consentOf("bulk@example.test")).toEqual(["api"]);
    expect(await consentOf("bulk-out@example.test")).toEqual([]);
    const csv = "email,subscribed\nimported@example.test,\nimported-out@example.test,no\nbulk-out@example.test,yes\nbulk@example.test,yes\n";
    const imported = await org.owner.api.post("/v1/contacts/import", {
      file_content: Buffer.from(csv).toString("base64"),
      column_mappings: [
        { csv_column: "email", property_name: "email" },
        { csv_column: "subscribed", property_name: "subscribed" },
      ],
      handle_missing: "create",
    });
    expect(imported.body).toMatchObject({ created: 2, updated: 2 });
    expect(await consentOf("imported@example.test")).toEqual(["import"]);
    expect(await consentOf("imported-out@example.test")).toEqual([]);
    expect(await consentOf("bulk-out@example.test")).toEqual(["import"]);
    // Already subscribed: nothing new to prove.
    expect(await consentOf("bulk@example.test")).toEqual(["api"]);
  });

  it(`keep the latest ${MAX_CONSENT_RECORDS}`, async () => {
    const { body } = await org.owner.api.post("/v1/contacts", { email: "many@example.test" });
    for (let i = 0; i < MAX_CONSENT_RECORDS + 2; i++) {
      await org.owner.api.put(`/v1/contacts/${body.id}`, { subscribed: false });
      await request("PUT", `/v1/contacts/${body.id}`, { headers: { cookie }, body: { subscribed: true } });
    }
    const sources = await consentOf("many@example.test");
    expect(sources).toHaveLength(MAX_CONSENT_RECORDS);
    expect(sources.every((s) => s === "dashboard")).toBe(true);
  });
});
