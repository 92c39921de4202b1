import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { client, createTestOrg, expectError, randomId, request, type TestOrg } from "@/lib/testing/api";
import { templatesOperations } from "./templates";

const addDomain = (target: TestOrg, name: string, status: "verified" | "pending" | "failed") =>
  db.domain.create({ data: { organization_id: target.organizationId, name, status, verification_token: "x" } });

const addInbox = (target: TestOrg, fields: { name?: string; from_email?: string; from_name?: string | null; reply_to?: string | null } = {}) =>
  db.inbox.create({
    data: {
      organization_id: target.organizationId,
      name: "Sales inbox",
      from_email: "sam@inbox.example",
      from_name: "Sam Seller",
      reply_to: "replies@inbox.example",
      smtp_host: "127.0.0.1",
      smtp_port: 2525,
      sender_confirmed_at: new Date(),
      ...fields,
    },
  });

describe("Templates", () => {
  let org: TestOrg;
  let other: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
    await addDomain(org, "verified.example", "verified");
    await addDomain(org, "pending.example", "pending");
    await addDomain(org, "failed.example", "failed");
    await addDomain(other, "theirs.example", "verified");
  });

  const createTemplate = (target: TestOrg, body: Record<string, unknown> = {}) =>
    target.owner.api.post("/v1/templates", { name: "Welcome", subject: "Hello", ...body });

  const stored = (id: string) => db.template.findUniqueOrThrow({ where: { id } });

  describe("POST /v1/templates", () => {
    it("creates a template (201) with every field of the record", async () => {
      const created = await createTemplate(org, {
        name: "Onboarding",
        subject: "Welcome {{first_name|there}}",
        html_content: "<html><body><p>Hi {{ first_name | there }}, your plan is {{metadata.plan}}.</p></body></html>",
        text_content: "Hi {{first_name}}, reply to {{owner}}",
        from_email: "news@verified.example",
        from_name: "News",
        reply_to: "help@verified.example",
        preview_text: "Your <first> week",
        tags: ["onboarding", "q3"],
        id: randomId(),
        organization_id: other.organizationId,
        created_by: other.owner.userId,
      });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(String),
        organization_id: org.organizationId,
        name: "Onboarding",
        subject: "Welcome {{first_name|there}}",
        html_content: "<html><body><p>Hi {{ first_name | there }}, your plan is {{metadata.plan}}.</p></body></html>",
        text_content: "Hi {{first_name}}, reply to {{owner}}",
        content_json: null,
        variables: ["first_name", "metadata.plan", "owner"],
        from_email: "news@verified.example",
        from_name: "News",
        reply_to: "help@verified.example",
        preview_text: "Your <first> week",
        preview_html: expect.any(String),
        inbox_id: null,
        tags: ["onboarding", "q3"],
        created_by: org.owner.userId,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        updated_at: expect.any(String),
      });
      const preview: string = created.body.preview_html;
      expect(preview).toMatch(/^<html><body><div style="display:none[^"]*" aria-hidden="true">Your &lt;first&gt; week<\/div><p>/);
      expect(preview).toContain("<p>Hi there, your plan is [metadata.plan].</p>");
      expect(preview).not.toContain("{{");
      expect((await stored(created.body.id)).organization_id).toBe(org.organizationId);
    });

    it("needs only a name and a subject, and keeps variables given explicitly", async () => {
      const minimal = await createTemplate(org, { subject: "Plain" });
      expect(minimal.status).toBe(201);
      expect(minimal.body).toMatchObject({ html_content: "", text_content: "", variables: [], from_email: null, tags: [], preview_html: "" });
      const explicit = await createTemplate(org, { html_content: "{{a}} {{b}}", variables: ["custom"] });
      expect(explicit.body.variables).toEqual(["custom"]);
    });

    it("puts the preheader first when the HTML has no body tag", async () => {
      const created = await createTemplate(org, { html_content: "<p>{{name}}</p>", preview_text: "Peek" });
      expect(created.body.preview_html).toMatch(/^<div style="display:none[^"]*" aria-hidden="true">Peek<\/div><p>\[name\]<\/p>$/);
    });

    it("refuses a from_email outside the organization's verified domains with 400 DOMAIN_NOT_VERIFIED", async () => {
      for (const from_email of ["a@pending.example", "a@failed.example", "a@theirs.example", "a@unknown.example"]) {
        const before = await db.template.count({ where: { organization_id: org.organizationId } });
        const error = expectError(await createTemplate(org, { from_email }), 400, "DOMAIN_NOT_VERIFIED");
        expect(error.details?.[0].path).toBe("from_email");
        expect(await db.template.count({ where: { organization_id: org.organizationId } })).toBe(before);
      }
      expect((await createTemplate(org, { from_email: "Someone@VERIFIED.example" })).status).toBe(201);
    });

    it("fills from name, from address and reply-to from the inbox where they are not given", async () => {
      const inbox = await addInbox(org);
      const filled = await createTemplate(org, { inbox_id: inbox.id });
      expect(filled.status).toBe(201);
      expect(filled.body).toMatchObject({
        inbox_id: inbox.id,
        from_name: "Sam Seller",
        from_email: "sam@inbox.example",
        reply_to: "replies@inbox.example",
      });
      const explicit = await createTemplate(org, { inbox_id: inbox.id, from_name: "Me", from_email: "me@verified.example", reply_to: null });
      expect(explicit.body).toMatchObject({ from_name: "Me", from_email: "me@verified.example", reply_to: null });
      const unnamed = await addInbox(org, { name: "Support", from_name: null, reply_to: null });
      const byName = await createTemplate(org, { inbox_id: unnamed.id });
      expect(byName.body).toMatchObject({ from_name: "Support", reply_to: null });
    });

    it("refuses another organization's inbox with 400 naming inbox_id", async () => {
      const theirs = await addInbox(other);
      for (const inbox_id of [theirs.id, randomId()]) {
        const error = expectError(await createTemplate(org, { inbox_id }), 400, "VALIDATION_ERROR");
        expect(error.details).toEqual([{ path: "inbox_id", message: expect.any(String) }]);
      }
    });

    it.each([
      ["name", { name: "" }],
      ["name", { name: undefined }],
      ["name", { name: "x".repeat(201) }],
      ["subject", { subject: "" }],
      ["subject", { subject: undefined }],
      ["subject", { subject: "x".repeat(999) }],
      ["subject", { subject: "a\u0000b" }],
      ["html_content", { html_content: "x".repeat(1_000_001) }],
      ["html_content", { html_content: 5 }],
      ["text_content", { text_content: "x".repeat(1_000_001) }],
      ["variables", { variables: "first_name" }],
      ["variables.0", { variables: [""] }],
      ["from_email", { from_email: "not-an-email" }],
      ["from_name", { from_name: "x".repeat(201) }],
      ["reply_to", { reply_to: "nope" }],
      ["preview_text", { preview_text: "x".repeat(501) }],
      ["inbox_id", { inbox_id: "inbox-1" }],
      ["tags.0", { tags: ["Upper"] }],
      ["tags.1", { tags: ["ok", "x".repeat(51)] }],
      ["tags", { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }],
      ["tags", { tags: "news" }],
    ])("refuses case %# with 400 naming %s", async (path, patch) => {
      const before = await db.template.count({ where: { organization_id: org.organizationId } });
      const error = expectError(await createTemplate(org, patch), 400, "VALIDATION_ERROR");
      expect(error.details?.map((d) => d.path)).toContain(path);
      expect(await db.template.count({ where: { organization_id: org.organizationId } })).toBe(before);
    });

    it("answers 401 without a credential", async () => {
      expectError(await client(null).post("/v1/templates", { name: "a", subject: "b" }), 401, "UNAUTHORIZED");
    });
  });

  describe("GET /v1/templates", () => {
    it("is always paginated: 20 a page by default, limit/after/before, newest first, own organization only", async () => {
      const fresh = await createTestOrg();
      const ids: string[] = [];
      for (let i = 0; i < 22; i++) ids.push((await createTemplate(fresh, { name: `t${i}` })).body.id);
      await createTemplate(other, { name: "not mine" });
      const newestFirst = [...ids].reverse();

      const first = await fresh.owner.api.get("/v1/templates");
      expect(first.status).toBe(200);
      expect(first.body.object).toBe("list");
      expect(first.body.has_more).toBe(true);
      expect(first.body.data.map((t: { id: string }) => t.id)).toEqual(newestFirst.slice(0, 20));
      expect(first.body.data[0]).toHaveProperty("preview_html");

      const rest = await fresh.owner.api.get(`/v1/templates?after=${first.body.data[19].id}`);
      expect(rest.body).toMatchObject({ object: "list", has_more: false });
      expect(rest.body.data.map((t: { id: string }) => t.id)).toEqual(newestFirst.slice(20));

      const page = await fresh.owner.api.get(`/v1/templates?limit=3&after=${newestFirst[2]}`);
      expect(page.body.data.map((t: { id: string }) => t.id)).toEqual(newestFirst.slice(3, 6));
      const back = await fresh.owner.api.get(`/v1/templates?limit=3&before=${newestFirst[3]}`);
      expect(back.body.data.map((t: { id: string }) => t.id)).toEqual(newestFirst.slice(0, 3));
      expect(back.body.has_more).toBe(false);
      const middle = await fresh.owner.api.get(`/v1/templates?limit=2&before=${newestFirst[5]}`);
      expect(middle.body.data.map((t: { id: string }) => t.id)).toEqual(newestFirst.slice(3, 5));
      expect(middle.body.has_more).toBe(true);
    });

    it("answers the 422 body for bad paging parameters, including another organization's id as cursor", async () => {
      const theirs = await createTemplate(other);
      const mine = await createTemplate(org);
      for (const query of [
        "limit=0",
        "limit=101",
        "limit=-1",
        "limit=ten",
        "after=not-a-uuid",
        "before=%00",
        `before=${randomId()}`,
        `after=${theirs.body.id}`,
        `after=${mine.body.id}&before=${mine.body.id}`,
      ]) {
        const result = await org.owner.api.get(`/v1/templates?${query}`);
        expect(result.status, query).toBe(422);
        expect(result.body).toEqual({ name: "validation_error", statusCode: 422, message: expect.any(String) });
      }
    });

    it("answers 401 without a credential", async () => {
      expectError(await client(null).get("/v1/templates"), 401, "UNAUTHORIZED");
    });
  });

  describe("GET /v1/templates/{id}", () => {
    it("retrieves a template", async () => {
      const created = await createTemplate(org, { html_content: "<b>{{x}}</b>" });
      const got = await org.owner.api.get(`/v1/templates/${created.body.id}`);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(created.body);
    });

    it("answers 404 for missing and foreign ids, 400 for a malformed one, 401 without a credential", async () => {
      const theirs = await createTemplate(other);
      expectError(await org.owner.api.get(`/v1/templates/${randomId()}`), 404, "NOT_FOUND");
      expectError(await org.owner.api.get(`/v1/templates/${theirs.body.id}`), 404, "NOT_FOUND");
      expect(expectError(await org.owner.api.get("/v1/templates/123"), 400, "VALIDATION_ERROR").details?.[0].path).toBe("id");
      expectError(await client(null).get(`/v1/templates/${theirs.body.id}`), 401, "UNAUTHORIZED");
    });
  });

  describe("PUT /v1/templates/{id}", () => {
    it("changes only the given fields and derives variables again when the content changes", async () => {
      const created = await createTemplate(org, { subject: "Hi {{first_name}}", html_content: "<p>{{plan}}</p>", tags: ["a"] });
      const renamed = await org.owner.api.put(`/v1/templates/${created.body.id}`, { name: "Renamed" });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ name: "Renamed", subject: "Hi {{first_name}}", variables: ["first_name", "plan"], tags: ["a"] });
      expect(renamed.body.created_by).toBe(org.owner.userId);

      const content = await org.owner.api.put(`/v1/templates/${created.body.id}`, { html_content: "<p>{{company|us}}</p>" });
      expect(content.body.variables).toEqual(["first_name", "company"]);
      expect(content.body.preview_html).toBe("<p>us</p>");

      const custom = await org.owner.api.put(`/v1/templates/${created.body.id}`, { variables: ["only_this"] });
      expect(custom.body.variables).toEqual(["only_this"]);
      const kept = await org.owner.api.put(`/v1/templates/${created.body.id}`, { tags: [] });
      expect(kept.body).toMatchObject({ variables: ["only_this"], tags: [] });

      const cleared = await org.owner.api.put(`/v1/templates/${created.body.id}`, { preview_text: null, reply_to: null });
      expect(cleared.body).toMatchObject({ preview_text: null, reply_to: null });
      expect(new Date(cleared.body.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(created.body.updated_at).getTime());
    });

    it("checks the sender domain and the inbox as on creation", async () => {
      const created = await createTemplate(org, { from_email: "a@verified.example" });
      const error = expectError(await org.owner.api.put(`/v1/templates/${created.body.id}`, { from_email: "a@pending.example" }), 400, "DOMAIN_NOT_VERIFIED");
      expect(error.details?.[0].path).toBe("from_email");
      const theirInbox = await addInbox(other);
      const inboxError = expectError(await org.owner.api.put(`/v1/templates/${created.body.id}`, { inbox_id: theirInbox.id }), 400, "VALIDATION_ERROR");
      expect(inboxError.details?.[0].path).toBe("inbox_id");
      expect(await stored(created.body.id)).toMatchObject({ from_email: "a@verified.example", inbox_id: null });

      const inbox = await addInbox(org, { from_name: "Inbox Name" });
      const linked = await org.owner.api.put(`/v1/templates/${created.body.id}`, { inbox_id: inbox.id, reply_to: "x@verified.example" });
      expect(linked.body).toMatchObject({ inbox_id: inbox.id, from_name: "Inbox Name", from_email: "sam@inbox.example", reply_to: "x@verified.example" });
      const unlinked = await org.owner.api.put(`/v1/templates/${created.body.id}`, { inbox_id: null });
      expect(unlinked.body).toMatchObject({ inbox_id: null, from_email: "sam@inbox.example" });
    });

    it.each([
      ["name", { name: "" }],
      ["subject", { subject: "" }],
      ["preview_text", { preview_text: "x".repeat(501) }],
      ["reply_to", { reply_to: "bad" }],
      ["tags.0", { tags: ["BAD"] }],
      ["inbox_id", { inbox_id: "x" }],
      ["html_content", { html_content: "\u0000" }],
    ])("refuses case %# with 400 naming %s and changes nothing", async (path, body) => {
      const created = await createTemplate(org);
      const error = expectError(await org.owner.api.put(`/v1/templates/${created.body.id}`, body), 400, "VALIDATION_ERROR");
      expect(error.details?.map((d) => d.path)).toContain(path);
      expect((await org.owner.api.get(`/v1/templates/${created.body.id}`)).body).toEqual(created.body);
    });

    it("answers 404 for missing and foreign ids without changing anything, 401 without a credential", async () => {
      const theirs = await createTemplate(other, { name: "Theirs" });
      expectError(await org.owner.api.put(`/v1/templates/${randomId()}`, { name: "x" }), 404, "NOT_FOUND");
      expectError(await org.owner.api.put(`/v1/templates/${theirs.body.id}`, { name: "Hijacked" }), 404, "NOT_FOUND");
      expectError(await client(null).put(`/v1/templates/${theirs.body.id}`, { name: "Anon" }), 401, "UNAUTHORIZED");
      expect((await other.owner.api.get(`/v1/templates/${theirs.body.id}`)).body).toEqual(theirs.body);
    });
  });

  describe("DELETE /v1/templates/{id}", () => {
    it("deletes a template; broadcasts that used it lose the reference", async () => {
      const created = await createTemplate(org);
      const broadcast = await org.owner.api.post("/v1/broadcasts", { name: "B", subject: "S", from_email: "a@b.example", template_id: created.body.id });
      expect(broadcast.body.template_id).toBe(created.body.id);
      const deleted = await org.owner.api.delete(`/v1/templates/${created.body.id}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ success: true });
      expect(await db.template.findUnique({ where: { id: created.body.id } })).toBeNull();
      expect((await org.owner.api.get(`/v1/broadcasts/${broadcast.body.id}`)).body.template_id).toBeNull();
      expectError(await org.owner.api.delete(`/v1/templates/${created.body.id}`), 404, "NOT_FOUND");
    });

    it("answers 404 for foreign ids without deleting, 400 for malformed ids, 401 without a credential", async () => {
      const theirs = await createTemplate(other);
      expectError(await org.owner.api.delete(`/v1/templates/${theirs.body.id}`), 404, "NOT_FOUND");
      expectError(await org.owner.api.delete("/v1/templates/abc"), 400, "VALIDATION_ERROR");
      expectError(await client(null).delete(`/v1/templates/${theirs.body.id}`), 401, "UNAUTHORIZED");
      expect(await db.template.findUnique({ where: { id: theirs.body.id } })).not.toBeNull();
    });
  });

  describe("credentials", () => {
    it("answers 401 to a missing or revoked credential on every template operation, changing nothing", async () => {
      const revoked = await org.owner.api.post("/v1/api-keys", { name: "revoked" });
      expect((await org.owner.api.delete(`/v1/api-keys/${revoked.body.id}`)).body).toEqual({ success: true });
      const created = await createTemplate(org);
      const state = () => db.template.findMany({ where: { organization_id: org.organizationId }, orderBy: { id: "asc" } });
      const before = await state();
      for (const op of templatesOperations) {
        const path = op.path.replace("{id}", created.body.id);
        for (const token of [null, revoked.body.token as string]) {
          const result = await request(op.method, path, { token, body: op.body ? { name: "Changed", subject: "Changed" } : undefined });
          expect(result.status, `${op.method} ${path}`).toBe(401);
          expectError(result, 401, "UNAUTHORIZED");
        }
      }
      expect(await state()).toEqual(before);
    });
  });
});
