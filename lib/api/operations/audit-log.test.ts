import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { PEER_HEADER } from "@/lib/api/client-address";
import { db } from "@/lib/db";
import { signInWithPassword } from "@/lib/services/accounts";
import { recordAudit } from "@/lib/services/audit-log";
import { createTestOrg, expectError, request } from "@/lib/testing/api";
import { hashPassword } from "@/lib/auth/password";

describe("GET /v1/audit-log", () => {
  it("records who did what from where, newest first, and filters by action", async () => {
    const org = await createTestOrg();
    const member = await org.addMember("member");
    const created = await org.owner.api.post("/v1/api-keys", { name: "Deploy" });
    await request("DELETE", `/v1/api-keys/${created.body.id}`, { token: org.owner.token, headers: { [PEER_HEADER]: "203.0.113.9" } });
    await org.owner.api.put(`/v1/members/${member.userId}`, { role: "admin" });
    await org.owner.api.post("/v1/invitations", { email: `guest-${randomUUID()}@example.test`, role: "member" });
    await org.owner.api.put("/v1/organization", { name: "Renamed" });

    const list = await org.owner.api.get("/v1/audit-log");
    expect(list.status).toBe(200);
    expect(list.body.object).toBe("list");
    const actions = list.body.data.map((e: { action: string }) => e.action);
    expect(actions.slice(0, 5)).toEqual(["organization.updated", "invitation.created", "member.role_changed", "api_key.revoked", "api_key.created"]);
    const revoked = list.body.data.find((e: { action: string }) => e.action === "api_key.revoked");
    expect(revoked).toMatchObject({
      organization_id: org.organizationId,
      actor_user_id: org.owner.userId,
      actor_email: org.owner.email,
      ip: "203.0.113.9",
      target_type: "api_key",
      target_id: created.body.id,
    });
    expect(revoked.actor_api_key_id).toMatch(/^[0-9a-f-]{36}$/);
    const roleChange = list.body.data.find((e: { action: string }) => e.action === "member.role_changed");
    expect(roleChange.details).toEqual({ from: "member", to: "admin" });

    const filtered = await org.owner.api.get("/v1/audit-log?action=api_key.created");
    expect(filtered.body.data.length).toBeGreaterThanOrEqual(1);
    expect(filtered.body.data.every((e: { action: string }) => e.action === "api_key.created")).toBe(true);
  });

  it("pages with cursors like the other lists, and refuses bad cursors with the 422 body", async () => {
    const org = await createTestOrg();
    for (let i = 0; i < 5; i++)
      await recordAudit(
        { organizationId: org.organizationId, userId: org.owner.userId },
        { action: "webhook.created", target: { type: "webhook", id: `${i}` } },
      );
    // Timestamps have millisecond precision, so two entries written in the same millisecond tie and
    // their order falls to the random id; give each its own second so "newest first" is defined.
    for (let i = 0; i < 5; i++)
      await db.auditLog.updateMany({
        where: { organization_id: org.organizationId, target_id: `${i}` },
        data: { created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)) },
      });
    const first = await org.owner.api.get("/v1/audit-log?limit=2&action=webhook.created");
    expect(first.body.data.map((e: { target_id: string }) => e.target_id)).toEqual(["4", "3"]);
    expect(first.body.has_more).toBe(true);
    const second = await org.owner.api.get(`/v1/audit-log?limit=2&action=webhook.created&after=${first.body.data[1].id}`);
    expect(second.body.data.map((e: { target_id: string }) => e.target_id)).toEqual(["2", "1"]);
    const back = await org.owner.api.get(`/v1/audit-log?limit=2&action=webhook.created&before=${second.body.data[0].id}`);
    expect(back.body.data.map((e: { target_id: string }) => e.target_id)).toEqual(["4", "3"]);
    expect((await org.owner.api.get("/v1/audit-log?limit=0")).status).toBe(422);
    expect((await org.owner.api.get("/v1/audit-log?after=nope")).status).toBe(422);
  });

  it("is for owners and admins, and each organization sees only its own", async () => {
    const org = await createTestOrg();
    const member = await org.addMember("member");
    expectError(await member.api.get("/v1/audit-log"), 403, "FORBIDDEN");
    const other = await createTestOrg();
    await other.owner.api.post("/v1/api-keys", { name: "Theirs" });
    const mine = await org.owner.api.get("/v1/audit-log?limit=100");
    expect(mine.body.data.every((e: { organization_id: string }) => e.organization_id === org.organizationId)).toBe(true);
  });

  it("records sign-ins and failures in the member's organizations, and unknown addresses in none", async () => {
    const org = await createTestOrg();
    await db.user.update({ where: { id: org.owner.userId }, data: { password_hash: await hashPassword("right-password") } });
    await signInWithPassword({ email: org.owner.email, password: "wrong", ip: "198.51.100.7" });
    await signInWithPassword({ email: org.owner.email, password: "right-password", ip: "198.51.100.7" });
    const unknown = `ghost-${randomUUID()}@example.test`;
    await signInWithPassword({ email: unknown, password: "guess", ip: "198.51.100.8" });
    const entries = (await org.owner.api.get("/v1/audit-log")).body.data;
    expect(entries.slice(0, 2).map((e: { action: string; ip: string }) => [e.action, e.ip])).toEqual([
      ["user.signed_in", "198.51.100.7"],
      ["user.sign_in_failed", "198.51.100.7"],
    ]);
    // Recorded for the operator, outside every organization.
    const ghost = await db.auditLog.findFirstOrThrow({ where: { actor_email: unknown } });
    expect(ghost.organization_id).toBeNull();
  });
});
