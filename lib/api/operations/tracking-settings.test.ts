import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestOrg, expectError } from "@/lib/testing/api";
import { verifiedDomain } from "@/lib/testing/sending-fixtures";

// track_opens, track_clicks and utm on broadcasts, steps and emails: defaults, changes, refusals.
describe("tracking settings", () => {
  it("default to tracking without UTM, and change on broadcasts and steps", async () => {
    const org = await createTestOrg();
    await verifiedDomain(org.organizationId, "settings.example");
    const created = (await org.owner.api.post("/v1/broadcasts", { name: "B", subject: "S", from_email: "news@settings.example" })).body;
    expect(created).toMatchObject({ track_opens: true, track_clicks: true, utm: null });
    const updated = await org.owner.api.put(`/v1/broadcasts/${created.id}`, { track_clicks: false, utm: { source: "news", campaign: "may" } });
    expect(updated.body).toMatchObject({ track_opens: true, track_clicks: false, utm: { source: "news", campaign: "may" } });
    expect((await org.owner.api.put(`/v1/broadcasts/${created.id}`, { utm: null })).body.utm).toBeNull();
    expect((await org.owner.api.get(`/v1/broadcasts/${created.id}`)).body).toMatchObject({ track_clicks: false, utm: null });

    const step = (await org.owner.api.post(`/v1/broadcasts/${created.id}/steps`, { delay_minutes: 60, html_content: "<p>x</p>", track_opens: false })).body;
    expect(step).toMatchObject({ track_opens: false, track_clicks: true, utm: null });
    const changed = await org.owner.api.put(`/v1/broadcasts/${created.id}/steps/${step.id}`, { utm: { medium: "email" } });
    expect(changed.body).toMatchObject({ track_opens: false, utm: { medium: "email" } });
    expect((await org.owner.api.put(`/v1/broadcasts/${created.id}/steps/${step.id}`, { utm: null })).body.utm).toBeNull();
  });

  it("are stored on an email sent with POST /v1/emails", async () => {
    const org = await createTestOrg();
    await verifiedDomain(org.organizationId, "mail.example");
    const base = { from: "a@mail.example", to: "b@example.net", subject: "S", html: "<p>x</p>" };
    const plain = (await org.owner.api.post("/v1/emails", base)).body;
    const chosen = (await org.owner.api.post("/v1/emails", { ...base, track_opens: false, utm: { campaign: "c" } })).body;
    const rows = await db.email.findMany({ where: { id: { in: [plain.id, chosen.id] } }, orderBy: { created_at: "asc" } });
    expect(rows.map((r) => [r.track_opens, r.track_clicks, r.utm])).toEqual([
      [true, true, null],
      [false, true, { campaign: "c" }],
    ]);
    // And answered with the email, as a broadcast's and a step's are.
    expect((await org.owner.api.get(`/v1/emails/${chosen.id}`)).body).toMatchObject({ track_opens: false, track_clicks: true, utm: { campaign: "c" } });
    expect((await org.owner.api.get(`/v1/emails?email_id=${plain.id}`)).body.data[0]).toMatchObject({ track_opens: true, track_clicks: true, utm: null });
  });

  it("refuse empty or overlong UTM values and settings that are not booleans", async () => {
    const org = await createTestOrg();
    await verifiedDomain(org.organizationId, "bad.example");
    const base = { from: "a@bad.example", to: "b@example.net", subject: "S", html: "<p>x</p>" };
    for (const [body, path] of [
      [{ utm: { source: "" } }, "utm.source"],
      [{ utm: { medium: "x".repeat(201) } }, "utm.medium"],
      [{ utm: "newsletter" }, "utm"],
      [{ track_opens: "no" }, "track_opens"],
    ] as const) {
      const refused = expectError(await org.owner.api.post("/v1/emails", { ...base, ...body }), 400, "VALIDATION_ERROR");
      expect(refused.details?.[0].path).toBe(path);
    }
  });
});
