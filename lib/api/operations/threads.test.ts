import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { Email } from "@/lib/generated/prisma/client";
import { client, createTestOrg, expectError, randomId, request, type TestOrg } from "@/lib/testing/api";
import { threadsOperations } from "./threads";

const at = (iso: string) => new Date(iso);

async function insertThread(organizationId: string) {
  const thread = await db.thread.create({
    data: { organization_id: organizationId, subject: "Quick question", last_message_at: at("2026-02-01T10:05:00.000Z") },
  });
  const emails: Email[] = [];
  for (const [minute, direction, from, to] of [
    [0, "outbound", "sales@example.com", "lead@example.org"],
    [5, "inbound", "lead@example.org", "sales@example.com"],
  ] as const) {
    emails.push(
      await db.email.create({
        data: {
          organization_id: organizationId,
          thread_id: thread.id,
          message_id: `<${randomId()}@example.test>`,
          direction,
          from_email: from,
          to_email: to,
          subject: minute ? "Re: Quick question" : "Quick question",
          status: direction === "inbound" ? "received" : "sent",
          parent_email_id: emails[0]?.id ?? null,
          created_at: at(`2026-02-01T10:0${minute}:00.000Z`),
        },
      }),
    );
  }
  return { thread, emails };
}

describe("Threads", () => {
  let org: TestOrg;
  let other: TestOrg;
  let threadId: string;
  let emailIds: string[];
  let theirThread: string;
  let theirEmail: string;

  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
    const mine = await insertThread(org.organizationId);
    threadId = mine.thread.id;
    emailIds = mine.emails.map((e) => e.id);
    const theirs = await insertThread(other.organizationId);
    theirThread = theirs.thread.id;
    theirEmail = theirs.emails[0].id;
    await db.threadDraft.create({ data: { organization_id: other.organizationId, thread_id: theirThread, text_content: "their draft" } });
  });

  describe("GET /v1/threads/{threadId}", () => {
    it("answers the thread with its emails oldest first and no draft", async () => {
      const fresh = await insertThread(org.organizationId);
      const result = await org.owner.api.get(`/v1/threads/${fresh.thread.id}`);
      expect(result.status).toBe(200);
      expect(result.body).toMatchObject({
        id: fresh.thread.id,
        organization_id: org.organizationId,
        subject: "Quick question",
        contact_id: null,
        inbox_id: null,
        broadcast_id: null,
        last_message_at: "2026-02-01T10:05:00.000Z",
        draft: null,
      });
      expect(result.body.emails.map((e: { id: string }) => e.id)).toEqual(fresh.emails.map((e) => e.id));
      expect(result.body.emails[1]).toMatchObject({ direction: "inbound", status: "received", parent_email_id: fresh.emails[0].id });
    });

    it("includes the saved draft", async () => {
      const fresh = await insertThread(org.organizationId);
      await org.owner.api.put(`/v1/threads/${fresh.thread.id}/draft`, { text_content: "Thanks!" });
      const result = await org.owner.api.get(`/v1/threads/${fresh.thread.id}`);
      expect(result.body.draft).toMatchObject({ thread_id: fresh.thread.id, text_content: "Thanks!", user_id: org.owner.userId });
    });

    it("answers 404 for a missing or another organization's thread, 400 for a malformed id, 401 without credential", async () => {
      expectError(await org.owner.api.get(`/v1/threads/${randomId()}`), 404, "NOT_FOUND");
      expectError(await org.owner.api.get(`/v1/threads/${theirThread}`), 404, "NOT_FOUND");
      const error = expectError(await org.owner.api.get("/v1/threads/123"), 400, "VALIDATION_ERROR");
      expect(error.details?.[0].path).toBe("threadId");
      expectError(await client(null).get(`/v1/threads/${threadId}`), 401, "UNAUTHORIZED");
    });
  });

  describe("PUT /v1/threads/{threadId}/draft", () => {
    it("creates the draft, then updates only the fields given", async () => {
      const member = await org.addMember("member");
      const created = await org.owner.api.put(`/v1/threads/${threadId}/draft`, { subject: "Re: Quick question", html_content: "<p>Hi</p>" });
      expect(created.status).toBe(200);
      expect(created.body).toEqual({
        id: expect.any(String),
        thread_id: threadId,
        organization_id: org.organizationId,
        user_id: org.owner.userId,
        subject: "Re: Quick question",
        html_content: "<p>Hi</p>",
        text_content: "",
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const updated = await member.api.put(`/v1/threads/${threadId}/draft`, { text_content: "Hi" });
      expect(updated.body).toMatchObject({
        id: created.body.id,
        subject: "Re: Quick question",
        html_content: "<p>Hi</p>",
        text_content: "Hi",
        user_id: member.userId,
        created_at: created.body.created_at,
      });
      const cleared = await org.owner.api.put(`/v1/threads/${threadId}/draft`, { subject: null });
      expect(cleared.body.subject).toBeNull();
      expect(await db.threadDraft.count({ where: { thread_id: threadId } })).toBe(1);
    });

    it("validates the body", async () => {
      for (const [body, path] of [
        [{ subject: 42 }, "subject"],
        [{ subject: "x".repeat(999) }, "subject"],
        [{ html_content: "a\u0000" }, "html_content"],
        [{ text_content: ["no"] }, "text_content"],
        [{ html_content: null }, "html_content"],
      ] as const) {
        const error = expectError(await org.owner.api.put(`/v1/threads/${threadId}/draft`, body), 400, "VALIDATION_ERROR");
        expect(
          error.details?.map((d) => d.path),
          JSON.stringify(body),
        ).toEqual([path]);
      }
      expectError(await org.owner.api.put("/v1/threads/nope/draft", {}), 400, "VALIDATION_ERROR");
    });

    it("answers 404 for a missing or another organization's thread and changes nothing", async () => {
      expectError(await org.owner.api.put(`/v1/threads/${randomId()}/draft`, { text_content: "x" }), 404, "NOT_FOUND");
      expectError(await org.owner.api.put(`/v1/threads/${theirThread}/draft`, { text_content: "mine now" }), 404, "NOT_FOUND");
      const theirs = await db.threadDraft.findUnique({ where: { thread_id: theirThread } });
      expect(theirs).toMatchObject({ text_content: "their draft", organization_id: other.organizationId });
    });

    it("answers 401 without credential", async () => {
      expectError(await client(null).put(`/v1/threads/${threadId}/draft`, { text_content: "x" }), 401, "UNAUTHORIZED");
    });
  });

  describe("DELETE /v1/threads/{threadId}/draft", () => {
    it("discards the draft, and succeeds again when there is none", async () => {
      await org.owner.api.put(`/v1/threads/${threadId}/draft`, { text_content: "bye" });
      expect(await org.owner.api.delete(`/v1/threads/${threadId}/draft`)).toMatchObject({ status: 200, body: { success: true } });
      expect(await db.threadDraft.count({ where: { thread_id: threadId } })).toBe(0);
      expect(await org.owner.api.delete(`/v1/threads/${threadId}/draft`)).toMatchObject({ status: 200, body: { success: true } });
      expect((await db.thread.findUnique({ where: { id: threadId } }))?.id).toBe(threadId);
    });

    it("answers 404 for a missing or another organization's thread and keeps their draft", async () => {
      expectError(await org.owner.api.delete(`/v1/threads/${randomId()}/draft`), 404, "NOT_FOUND");
      expectError(await org.owner.api.delete(`/v1/threads/${theirThread}/draft`), 404, "NOT_FOUND");
      expect(await db.threadDraft.count({ where: { thread_id: theirThread } })).toBe(1);
      const error = expectError(await org.owner.api.delete("/v1/threads/x/draft"), 400, "VALIDATION_ERROR");
      expect(error.details?.[0].path).toBe("threadId");
    });

    it("answers 401 without credential", async () => {
      expectError(await client(null).delete(`/v1/threads/${threadId}/draft`), 401, "UNAUTHORIZED");
    });
  });

  describe("comments on an email", () => {
    it("creates comments and lists them oldest first with their authors", async () => {
      const member = await org.addMember("member");
      const first = await org.owner.api.post(`/v1/threads/emails/${emailIds[1]}/comments`, { content: "Looks warm — follow up?" });
      expect(first.status).toBe(201);
      expect(first.body).toEqual({
        id: expect.any(String),
        email_id: emailIds[1],
        organization_id: org.organizationId,
        user_id: org.owner.userId,
        content: "Looks warm — follow up?",
        author: { name: "Owner Person", email: org.owner.email },
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const second = await member.api.post(`/v1/threads/emails/${emailIds[1]}/comments`, { content: "On it" });
      expect(second.body.author).toEqual({ name: "member person", email: member.email });
      const list = await org.owner.api.get(`/v1/threads/emails/${emailIds[1]}/comments`);
      expect(list.status).toBe(200);
      expect(list.body).toMatchObject({ object: "list", has_more: false });
      expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([first.body.id, second.body.id]);
      const none = await org.owner.api.get(`/v1/threads/emails/${emailIds[0]}/comments`);
      expect(none.body.data).toEqual([]);
    });

    it("validates the content", async () => {
      for (const body of [{}, { content: "" }, { content: "   " }, { content: "x".repeat(20_001) }, { content: "a\u0000" }, { content: 5 }]) {
        const error = expectError(await org.owner.api.post(`/v1/threads/emails/${emailIds[0]}/comments`, body), 400, "VALIDATION_ERROR");
        expect(
          error.details?.map((d) => d.path),
          JSON.stringify(body).slice(0, 40),
        ).toEqual(["content"]);
      }
      const ok = await org.owner.api.post(`/v1/threads/emails/${emailIds[0]}/comments`, { content: "x".repeat(20_000) });
      expect(ok.status).toBe(201);
      const error = expectError(await org.owner.api.post("/v1/threads/emails/abc/comments", { content: "x" }), 400, "VALIDATION_ERROR");
      expect(error.details?.[0].path).toBe("emailId");
      expectError(await org.owner.api.get("/v1/threads/emails/abc/comments"), 400, "VALIDATION_ERROR");
    });

    it("answers 404 for a missing or another organization's email and writes nothing", async () => {
      expectError(await org.owner.api.post(`/v1/threads/emails/${randomId()}/comments`, { content: "x" }), 404, "NOT_FOUND");
      expectError(await org.owner.api.post(`/v1/threads/emails/${theirEmail}/comments`, { content: "x" }), 404, "NOT_FOUND");
      expect(await db.emailComment.count({ where: { email_id: theirEmail } })).toBe(0);
      await other.owner.api.post(`/v1/threads/emails/${theirEmail}/comments`, { content: "private" });
      expectError(await org.owner.api.get(`/v1/threads/emails/${theirEmail}/comments`), 404, "NOT_FOUND");
      expectError(await org.owner.api.get(`/v1/threads/emails/${randomId()}/comments`), 404, "NOT_FOUND");
    });

    it("answers 401 without credential", async () => {
      expectError(await client(null).post(`/v1/threads/emails/${emailIds[0]}/comments`, { content: "x" }), 401, "UNAUTHORIZED");
      expectError(await client(null).get(`/v1/threads/emails/${emailIds[0]}/comments`), 401, "UNAUTHORIZED");
    });
  });

  describe("credentials", () => {
    it("answers 401 to a missing or revoked credential on every thread operation, changing nothing", async () => {
      const revoked = await org.owner.api.post("/v1/api-keys", { name: "revoked" });
      expect((await org.owner.api.delete(`/v1/api-keys/${revoked.body.id}`)).body).toEqual({ success: true });
      await org.owner.api.put(`/v1/threads/${threadId}/draft`, { text_content: "kept" });
      const state = async () => ({
        drafts: await db.threadDraft.findMany({ where: { organization_id: org.organizationId }, orderBy: { id: "asc" } }),
        comments: await db.emailComment.findMany({ where: { organization_id: org.organizationId }, orderBy: { id: "asc" } }),
      });
      const before = await state();
      for (const op of threadsOperations) {
        const path = op.path.replace("{threadId}", threadId).replace("{emailId}", emailIds[0]);
        for (const token of [null, revoked.body.token as string]) {
          const result = await request(op.method, path, { token, body: op.body ? { content: "sneaky", text_content: "sneaky" } : undefined });
          expect(result.status, `${op.method} ${path}`).toBe(401);
          expectError(result, 401, "UNAUTHORIZED");
        }
      }
      expect(await state()).toEqual(before);
    });
  });
});
