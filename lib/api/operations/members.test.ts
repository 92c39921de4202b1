import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { client, createTestOrg, expectError, randomId, request, type TestOrg } from "@/lib/testing/api";
import { membersOperations } from "./members";

const roleOf = async (organizationId: string, userId: string) =>
  (await db.membership.findUnique({ where: { organization_id_user_id: { organization_id: organizationId, user_id: userId } } }))?.role ?? null;

describe("members", () => {
  let other: TestOrg;
  beforeAll(async () => {
    other = await createTestOrg("Other");
  });

  describe("GET /v1/members", () => {
    it("lists every member in the order they joined, to any member", async () => {
      const org = await createTestOrg();
      const admin = await org.addMember("admin");
      const member = await org.addMember("member");
      const list = await member.api.get("/v1/members");
      expect(list.status).toBe(200);
      expect(list.body.object).toBe("list");
      expect(list.body.has_more).toBe(false);
      expect(list.body.data.map((m: { user_id: string }) => m.user_id)).toEqual([org.owner.userId, admin.userId, member.userId]);
      expect(list.body.data[0]).toEqual({
        user_id: org.owner.userId,
        email: org.owner.email,
        name: "Owner Person",
        role: "owner",
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      expect(list.body.data.map((m: { role: string }) => m.role)).toEqual(["owner", "admin", "member"]);
    });

    it("refuses missing credentials (401)", async () => {
      expectError(await client(null).get("/v1/members"), 401, "UNAUTHORIZED");
    });
  });

  describe("PUT /v1/members/{userId}", () => {
    it("lets an admin promote a member to admin and back", async () => {
      const org = await createTestOrg();
      const admin = await org.addMember("admin");
      const member = await org.addMember("member");
      const promoted = await admin.api.put(`/v1/members/${member.userId}`, { role: "admin" });
      expect(promoted.status).toBe(200);
      expect(promoted.body).toMatchObject({ user_id: member.userId, email: member.email, role: "admin" });
      expect(await roleOf(org.organizationId, member.userId)).toBe("admin");
      expect((await admin.api.put(`/v1/members/${member.userId}`, { role: "member" })).body.role).toBe("member");
    });

    it("lets only an owner grant or take away the owner role", async () => {
      const org = await createTestOrg();
      const admin = await org.addMember("admin");
      const member = await org.addMember("member");
      expectError(await admin.api.put(`/v1/members/${member.userId}`, { role: "owner" }), 403, "FORBIDDEN");
      expectError(await admin.api.put(`/v1/members/${admin.userId}`, { role: "owner" }), 403, "FORBIDDEN");
      expectError(await admin.api.put(`/v1/members/${org.owner.userId}`, { role: "member" }), 403, "FORBIDDEN");
      expect(await roleOf(org.organizationId, member.userId)).toBe("member");
      expect(await roleOf(org.organizationId, org.owner.userId)).toBe("owner");

      const granted = await org.owner.api.put(`/v1/members/${member.userId}`, { role: "owner" });
      expect(granted.body.role).toBe("owner");
      // With two owners one may step down.
      expect((await org.owner.api.put(`/v1/members/${org.owner.userId}`, { role: "admin" })).body.role).toBe("admin");
      expect(await roleOf(org.organizationId, org.owner.userId)).toBe("admin");
    });

    it("refuses to demote the last owner (400 LAST_OWNER)", async () => {
      const org = await createTestOrg();
      expectError(await org.owner.api.put(`/v1/members/${org.owner.userId}`, { role: "admin" }), 400, "LAST_OWNER");
      expect(await roleOf(org.organizationId, org.owner.userId)).toBe("owner");
      // Setting the role it already has is not a demotion.
      expect((await org.owner.api.put(`/v1/members/${org.owner.userId}`, { role: "owner" })).status).toBe(200);
    });

    it("keeps one owner when two owners demote each other at once", async () => {
      const org = await createTestOrg();
      const second = await org.addMember("owner");
      const results = await Promise.all([
        org.owner.api.put(`/v1/members/${second.userId}`, { role: "member" }),
        second.api.put(`/v1/members/${org.owner.userId}`, { role: "member" }),
      ]);
      // The loser is either the last owner or no longer an owner at all, depending on who locks first.
      const statuses = results.map((r) => r.status).sort();
      expect(statuses[0]).toBe(200);
      expect([400, 403]).toContain(statuses[1]);
      expect(await db.membership.count({ where: { organization_id: org.organizationId, role: "owner" } })).toBe(1);
    });

    it("validates the role and the path id", async () => {
      const org = await createTestOrg();
      const member = await org.addMember("member");
      const bad = expectError(await org.owner.api.put(`/v1/members/${member.userId}`, { role: "boss" }), 400, "VALIDATION_ERROR");
      expect(bad.details?.[0].path).toBe("role");
      const missing = expectError(await org.owner.api.put(`/v1/members/${member.userId}`, {}), 400, "VALIDATION_ERROR");
      expect(missing.details?.[0].path).toBe("role");
      const malformed = expectError(await org.owner.api.put(`/v1/members/nope`, { role: "admin" }), 400, "VALIDATION_ERROR");
      expect(malformed.details?.[0].path).toBe("userId");
      expect(await roleOf(org.organizationId, member.userId)).toBe("member");
    });

    it("404s an unknown user and a member of another organization (unchanged)", async () => {
      const org = await createTestOrg();
      const theirs = await other.addMember("member");
      expectError(await org.owner.api.put(`/v1/members/${theirs.userId}`, { role: "admin" }), 404, "NOT_FOUND");
      expect(await roleOf(other.organizationId, theirs.userId)).toBe("member");
      expect(await roleOf(org.organizationId, theirs.userId)).toBeNull();
      expectError(await org.owner.api.put(`/v1/members/${randomId()}`, { role: "admin" }), 404, "NOT_FOUND");
    });

    it("forbids members (403) and refuses missing credentials (401)", async () => {
      const org = await createTestOrg();
      const member = await org.addMember("member");
      const peer = await org.addMember("member");
      expectError(await member.api.put(`/v1/members/${peer.userId}`, { role: "admin" }), 403, "FORBIDDEN");
      expectError(await member.api.put(`/v1/members/${member.userId}`, { role: "admin" }), 403, "FORBIDDEN");
      expectError(await client(null).put(`/v1/members/${peer.userId}`, { role: "admin" }), 401, "UNAUTHORIZED");
      expect(await roleOf(org.organizationId, peer.userId)).toBe("member");
      expect(await roleOf(org.organizationId, member.userId)).toBe("member");
    });
  });

  describe("DELETE /v1/members/{userId}", () => {
    it("removes a member and revokes their API keys in that organization only", async () => {
      const org = await createTestOrg();
      const member = await org.addMember("member");
      const elsewhere = await db.membership.create({ data: { organization_id: other.organizationId, user_id: member.userId, role: "member" } });
      const keyElsewhere = await db.apiKey.create({ data: { organization_id: other.organizationId, user_id: member.userId, name: "x", token_hint: "" } });
      expect((await member.api.get("/v1/members")).status).toBe(200);

      const removed = await org.owner.api.delete(`/v1/members/${member.userId}`);
      expect(removed.status).toBe(200);
      expect(removed.body).toEqual({ success: true });
      expect(await roleOf(org.organizationId, member.userId)).toBeNull();
      const keys = await db.apiKey.findMany({ where: { organization_id: org.organizationId, user_id: member.userId } });
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.every((k) => k.revoked_at !== null)).toBe(true);
      expectError(await member.api.get("/v1/members"), 401, "UNAUTHORIZED");
      expect(await roleOf(other.organizationId, member.userId)).toBe("member");
      expect((await db.apiKey.findUniqueOrThrow({ where: { id: keyElsewhere.id } })).revoked_at).toBeNull();
      await db.membership.delete({ where: { id: elsewhere.id } });
    });

    it("lets any member leave, but not the last owner", async () => {
      const org = await createTestOrg();
      const member = await org.addMember("member");
      expect((await member.api.delete(`/v1/members/${member.userId}`)).body).toEqual({ success: true });
      expect(await roleOf(org.organizationId, member.userId)).toBeNull();
      const shouting = await org.addMember("member");
      expect((await shouting.api.delete(`/v1/members/${shouting.userId.toUpperCase()}`)).body).toEqual({ success: true });
      expect(await roleOf(org.organizationId, shouting.userId)).toBeNull();

      expectError(await org.owner.api.delete(`/v1/members/${org.owner.userId}`), 400, "LAST_OWNER");
      expect(await roleOf(org.organizationId, org.owner.userId)).toBe("owner");
      const second = await org.addMember("owner");
      expect((await org.owner.api.delete(`/v1/members/${org.owner.userId}`)).status).toBe(200);
      expectError(await second.api.delete(`/v1/members/${second.userId}`), 400, "LAST_OWNER");
    });

    it("lets admins remove members and admins but not owners; owners remove owners", async () => {
      const org = await createTestOrg();
      const admin = await org.addMember("admin");
      const otherAdmin = await org.addMember("admin");
      const secondOwner = await org.addMember("owner");
      expect((await admin.api.delete(`/v1/members/${otherAdmin.userId}`)).status).toBe(200);
      expectError(await admin.api.delete(`/v1/members/${secondOwner.userId}`), 403, "FORBIDDEN");
      expect(await roleOf(org.organizationId, secondOwner.userId)).toBe("owner");
      expect((await org.owner.api.delete(`/v1/members/${secondOwner.userId}`)).status).toBe(200);
      expect(await roleOf(org.organizationId, secondOwner.userId)).toBeNull();
    });

    it("forbids a member removing someone else (403) and refuses missing credentials (401)", async () => {
      const org = await createTestOrg();
      const member = await org.addMember("member");
      const peer = await org.addMember("member");
      expectError(await member.api.delete(`/v1/members/${peer.userId}`), 403, "FORBIDDEN");
      expectError(await member.api.delete(`/v1/members/${org.owner.userId}`), 403, "FORBIDDEN");
      expectError(await client(null).delete(`/v1/members/${peer.userId}`), 401, "UNAUTHORIZED");
      expect(await roleOf(org.organizationId, peer.userId)).toBe("member");
    });

    it("404s an unknown user and a member of another organization (unchanged), 400 on a malformed id", async () => {
      const org = await createTestOrg();
      const theirs = await other.addMember("member");
      expectError(await org.owner.api.delete(`/v1/members/${theirs.userId}`), 404, "NOT_FOUND");
      expect(await roleOf(other.organizationId, theirs.userId)).toBe("member");
      expect((await theirs.api.get("/v1/members")).status).toBe(200);
      expectError(await org.owner.api.delete(`/v1/members/${randomId()}`), 404, "NOT_FOUND");
      expect(expectError(await org.owner.api.delete(`/v1/members/nope`), 400, "VALIDATION_ERROR").details?.[0].path).toBe("userId");
    });
  });

  describe("credentials", () => {
    it("answers 401 to a missing or revoked credential on every member operation, changing nothing", async () => {
      const org = await createTestOrg();
      const revoked = await org.owner.api.post("/v1/api-keys", { name: "revoked" });
      expect((await org.owner.api.delete(`/v1/api-keys/${revoked.body.id}`)).body).toEqual({ success: true });
      const member = await org.addMember("member");
      const state = () => db.membership.findMany({ where: { organization_id: org.organizationId }, orderBy: { id: "asc" } });
      const before = await state();
      for (const op of membersOperations) {
        const path = op.path.replace("{userId}", member.userId);
        for (const token of [null, revoked.body.token as string]) {
          const result = await request(op.method, path, { token, body: op.body ? { role: "admin" } : undefined });
          expect(result.status, `${op.method} ${path}`).toBe(401);
          expectError(result, 401, "UNAUTHORIZED");
        }
      }
      expect(await state()).toEqual(before);
    });
  });
});
