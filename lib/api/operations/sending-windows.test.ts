import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestOrg, expectError, type TestOrg } from "@/lib/testing/api";

const paths = (details: { path: string }[] | undefined) => (details ?? []).map((d) => d.path);

describe("sending windows, time zones and business days in the API", () => {
  let org: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg();
  });

  const newBroadcast = (body: Record<string, unknown> = {}) =>
    org.owner.api.post("/v1/broadcasts", { name: "Sequence", subject: "Hi", from_email: "a@example.com", ...body });

  it("takes a sending window in a fixed or the contact's zone, refuses a malformed one naming the field, and clears it with null", async () => {
    const window = { days: ["mon", "tue", "wed", "thu", "fri"], start: "09:00", end: "17:00", timezone: "contact" };
    const created = await newBroadcast({ sending_window: window });
    expect(created.status).toBe(201);
    expect(created.body.sending_window).toEqual(window);
    const id = created.body.id;

    const bad: [Record<string, unknown>, string][] = [
      [{ ...window, days: [] }, "sending_window.days"],
      [{ ...window, days: ["mon", "mon"] }, "sending_window.days"],
      [{ ...window, days: ["monday"] }, "sending_window.days.0"],
      [{ ...window, start: "9:00" }, "sending_window.start"],
      [{ ...window, start: "24:00" }, "sending_window.start"],
      [{ ...window, end: "24:30" }, "sending_window.end"],
      [{ ...window, start: "17:00", end: "09:00" }, "sending_window.end"],
      [{ ...window, timezone: "Mars/Olympus" }, "sending_window.timezone"],
      [{ ...window, timezone: "+02:00" }, "sending_window.timezone"],
    ];
    for (const [sending_window, path] of bad) {
      const error = expectError(await org.owner.api.put(`/v1/broadcasts/${id}`, { sending_window }), 400, "VALIDATION_ERROR");
      expect(paths(error.details)).toContain(path);
    }
    const fixed = await org.owner.api.put(`/v1/broadcasts/${id}`, { sending_window: { ...window, timezone: "US/Eastern" } });
    expect(fixed.body.sending_window).toEqual({ ...window, timezone: "America/New_York" });
    expect((await org.owner.api.put(`/v1/broadcasts/${id}`, { sending_window: null })).body.sending_window).toBeNull();
    expect((await db.broadcast.findUniqueOrThrow({ where: { id } })).sending_window).toBeNull();
  });

  it("stops for a company by default in sales mode only, unless set", async () => {
    expect((await newBroadcast()).body.stop_on_company_reply).toBe(true);
    const marketing = await newBroadcast({ sequence_mode: "marketing" });
    expect(marketing.body.stop_on_company_reply).toBe(false);
    const id = marketing.body.id;
    expect((await org.owner.api.put(`/v1/broadcasts/${id}`, { stop_on_company_reply: true })).body.stop_on_company_reply).toBe(true);
    expect((await org.owner.api.put(`/v1/broadcasts/${id}`, { stop_on_company_reply: null, sequence_mode: "sales" })).body.stop_on_company_reply).toBe(true);
    expect((await org.owner.api.put(`/v1/broadcasts/${id}`, { stop_on_company_reply: false })).body.stop_on_company_reply).toBe(false);
  });

  it("waits business days instead of minutes, one kind of delay at a time", async () => {
    const id = (await newBroadcast()).body.id;
    const step = await org.owner.api.post(`/v1/broadcasts/${id}/steps`, { delay_business_days: 2, text_content: "Bump" });
    expect(step.status).toBe(201);
    expect(step.body).toMatchObject({ delay_minutes: 0, delay_business_days: 2 });
    const path = `/v1/broadcasts/${id}/steps/${step.body.id}`;
    expect((await org.owner.api.put(path, { delay_minutes: 90 })).body).toMatchObject({ delay_minutes: 90, delay_business_days: null });
    expect((await org.owner.api.put(path, { delay_business_days: 5 })).body).toMatchObject({ delay_minutes: 0, delay_business_days: 5 });

    const both = expectError(await org.owner.api.post(`/v1/broadcasts/${id}/steps`, { delay_minutes: 60, delay_business_days: 1, text_content: "x" }), 400);
    expect(paths(both.details)).toEqual(["delay_business_days"]);
    const neither = expectError(await org.owner.api.post(`/v1/broadcasts/${id}/steps`, { text_content: "x" }), 400);
    expect(paths(neither.details)).toEqual(["delay_minutes"]);
    for (const delay_business_days of [0, 261, 1.5, "2"]) {
      const error = expectError(await org.owner.api.post(`/v1/broadcasts/${id}/steps`, { delay_business_days, text_content: "x" }), 400);
      expect(paths(error.details)).toContain("delay_business_days");
    }
  });

  it("keeps a contact's time zone under its canonical name, in every way contacts are written", async () => {
    const created = await org.owner.api.post("/v1/contacts", { email: "tz@example.test", timezone: "asia/tokyo" });
    expect(created.status).toBe(201);
    expect(created.body.timezone).toBe("Asia/Tokyo");
    const id = created.body.id;
    expect((await org.owner.api.put(`/v1/contacts/${id}`, { first_name: "Aiko" })).body.timezone).toBe("Asia/Tokyo");
    expect((await org.owner.api.put(`/v1/contacts/${id}`, { timezone: null })).body.timezone).toBeNull();
    const error = expectError(await org.owner.api.put(`/v1/contacts/${id}`, { timezone: "Nowhere/Land" }), 400, "VALIDATION_ERROR");
    expect(paths(error.details)).toEqual(["timezone"]);

    const bulk = await org.owner.api.post("/v1/contacts/bulk", {
      contacts: [{ email: "bulk-tz@example.test", timezone: "Europe/Paris" }, { email: "bulk-none@example.test" }],
    });
    expect(bulk.body).toEqual({ imported: 2, total: 2 });
    const rows = await db.contact.findMany({ where: { organization_id: org.organizationId, email: { startsWith: "bulk-" } }, orderBy: { email: "asc" } });
    expect(rows.map((r) => [r.email, r.timezone])).toEqual([
      ["bulk-none@example.test", null],
      ["bulk-tz@example.test", "Europe/Paris"],
    ]);
    const refused = expectError(await org.owner.api.post("/v1/contacts/bulk", { contacts: [{ email: "x@example.test", timezone: "UTC+2" }] }), 400);
    expect(paths(refused.details)).toEqual(["contacts.0.timezone"]);
    // The unpaged list (SQL-built records) carries it too.
    const listed = await org.owner.api.get("/v1/contacts?search=bulk-tz");
    expect(listed.body.contacts[0].timezone).toBe("Europe/Paris");
  });

  it("sets the organization's time zone (default UTC) for owners and admins, validated", async () => {
    const fresh = await createTestOrg();
    expect((await fresh.owner.api.get("/v1/organization")).body.timezone).toBe("UTC");
    expect((await fresh.owner.api.put("/v1/organization", { timezone: "europe/berlin" })).body.timezone).toBe("Europe/Berlin");
    const error = expectError(await fresh.owner.api.put("/v1/organization", { timezone: "Europe/Nowhere" }), 400, "VALIDATION_ERROR");
    expect(paths(error.details)).toEqual(["timezone"]);
    const member = await fresh.addMember("member");
    expectError(await member.api.put("/v1/organization", { timezone: "UTC" }), 403, "FORBIDDEN");
    expect((await db.organization.findUniqueOrThrow({ where: { id: fresh.organizationId } })).timezone).toBe("Europe/Berlin");
  });
});
