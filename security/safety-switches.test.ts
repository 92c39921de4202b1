import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { SuppressionReason } from "@/lib/generated/prisma/enums";
import { createTestOrg, expectError, type TestMember, type TestOrg } from "@/lib/testing/api";
import { seedSegment, verifiedDomain } from "@/lib/testing/sending-fixtures";

// Trust, second pass: a member could resume a broadcast or an inbox that a circuit breaker had
// paused, and delete bounce and complaint suppressions. Overriding the platform's own safety
// decisions is for admins and owners; members keep what people decide (their own pauses, manual
// suppressions).
describe("safety switches", () => {
  let org: TestOrg;
  let member: TestMember;
  let admin: TestMember;
  let segmentId: string;

  beforeAll(async () => {
    org = await createTestOrg();
    member = await org.addMember("member");
    admin = await org.addMember("admin");
    await verifiedDomain(org.organizationId, "switches.test");
    segmentId = (await seedSegment(org.organizationId, [{ first_name: "A" }])).segmentId;
  });

  async function pausedBroadcast(reason: "manual" | "bounce_rate" | "complaint_rate") {
    const created = await org.owner.api.post("/v1/broadcasts", {
      name: "News",
      subject: "Hello",
      from_email: "news@switches.test",
      html_content: "<p>Hi</p>",
      segment_id: segmentId,
    });
    expect(created.status).toBe(201);
    const now = new Date();
    await db.broadcast.update({
      where: { id: created.body.id },
      data: { status: "paused", paused_reason: reason, paused_at: now, started_at: now, fanned_out_at: now },
    });
    return created.body.id as string;
  }

  it("lets only admins and owners resume a broadcast a breaker paused", async () => {
    for (const reason of ["bounce_rate", "complaint_rate"] as const) {
      const id = await pausedBroadcast(reason);
      const refused = expectError(await member.api.post(`/v1/broadcasts/${id}/resume`), 403, "FORBIDDEN");
      expect(refused.error).toMatch(/admin/);
      expect(await db.broadcast.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "paused", paused_reason: reason });
      expect((await admin.api.post(`/v1/broadcasts/${id}/resume`)).body).toMatchObject({ status: "sending", paused_reason: null });
    }
    // What a person paused, a member may resume.
    const manual = await pausedBroadcast("manual");
    expect((await member.api.post(`/v1/broadcasts/${manual}/resume`)).body).toMatchObject({ status: "sending" });
  });

  it("lets only admins and owners resume an inbox the bounce-rate breaker paused", async () => {
    const created = await org.owner.api.post("/v1/inboxes", {
      name: "Sales",
      from_email: "sales@switches.test",
      smtp: { host: "smtp.example.com", port: 587, secure: false, username: "sales", password: "smtp-pass" },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    await db.inbox.update({ where: { id }, data: { paused: true, paused_reason: "bounce_rate", paused_at: new Date() } });

    expectError(await member.api.put(`/v1/inboxes/${id}`, { paused: false }), 403, "FORBIDDEN");
    expect(await db.inbox.findUniqueOrThrow({ where: { id } })).toMatchObject({ paused: true, paused_reason: "bounce_rate" });
    // Other changes a member may make stay open to them, and leave the pause as it is.
    expect((await member.api.put(`/v1/inboxes/${id}`, { name: "Sales team" })).body).toMatchObject({ name: "Sales team", paused: true });
    expect((await admin.api.put(`/v1/inboxes/${id}`, { paused: false })).body).toMatchObject({ paused: false, paused_reason: null });

    // A member pauses and resumes by hand as before.
    expect((await member.api.put(`/v1/inboxes/${id}`, { paused: true })).body).toMatchObject({ paused: true, paused_reason: "manual" });
    expect((await member.api.put(`/v1/inboxes/${id}`, { paused: false })).body).toMatchObject({ paused: false });
  });

  it("lets only admins and owners delete a suppression the platform made; members delete manual ones", async () => {
    const suppress = async (reason: SuppressionReason) => {
      const email = `${reason}-${randomUUID()}@example.test`;
      await db.suppression.create({ data: { organization_id: org.organizationId, email, reason } });
      return email;
    };
    for (const reason of ["hard_bounce", "soft_bounce", "complaint", "unsubscribe"] as const) {
      const email = await suppress(reason);
      expectError(await member.api.delete(`/v1/suppressions/${encodeURIComponent(email)}`), 403, "FORBIDDEN");
      expect(await db.suppression.count({ where: { organization_id: org.organizationId, email } })).toBe(1);
      expect((await admin.api.delete(`/v1/suppressions/${encodeURIComponent(email)}`)).status).toBe(200);
      expect(await db.suppression.count({ where: { organization_id: org.organizationId, email } })).toBe(0);
    }
    const manual = await suppress("manual");
    expect((await member.api.delete(`/v1/suppressions/${encodeURIComponent(manual)}`)).status).toBe(200);
    // An address with no suppression is still a 404, whoever asks.
    expectError(await member.api.delete(`/v1/suppressions/${encodeURIComponent(manual)}`), 404, "NOT_FOUND");
  });
});
