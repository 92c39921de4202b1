import pg from "pg";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { OrgContext } from "@/lib/domain/context";
import { db } from "@/lib/db";
import { checkEmails } from "@/lib/services/contacts";
import { client, createTestOrg, expectError, randomId, request, type TestOrg } from "@/lib/testing/api";
import { contactsOperations } from "./contacts";

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe("contacts: create, retrieve, update, delete", () => {
  let org: TestOrg;
  let other: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
  });

  it("creates a contact with its email trimmed and lowercase, and defaults", async () => {
    const created = await org.owner.api.post("/v1/contacts", {
      email: "  Ada.Lovelace@Example.TEST ",
      first_name: "Ada",
      id: randomId(),
      organization_id: other.organizationId,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      email: "ada.lovelace@example.test",
      first_name: "Ada",
      last_name: null,
      metadata: {},
      subscribed: true,
      unsubscribed_at: null,
      tags: [],
      organization_id: org.organizationId,
    });
    expect(created.body.created_at).toMatch(ISO_MS);
    expect(created.body.updated_at).toMatch(ISO_MS);
    const fetched = await org.owner.api.get(`/v1/contacts/${created.body.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(created.body);
  });

  it("records unsubscribed_at when created unsubscribed, and keeps metadata and tags", async () => {
    const created = await org.owner.api.post("/v1/contacts", {
      email: "gone@example.test",
      subscribed: false,
      metadata: { plan: "pro", seats: 3, trial: false },
      tags: ["vip", "beta"],
    });
    expect(created.status).toBe(201);
    expect(created.body.subscribed).toBe(false);
    expect(created.body.unsubscribed_at).toMatch(ISO_MS);
    expect(created.body.metadata).toEqual({ plan: "pro", seats: 3, trial: false });
    expect(created.body.tags).toEqual(["vip", "beta"]);
  });

  it("answers 409 CONFLICT for an email that is already a contact, whatever its case and spaces", async () => {
    await org.owner.api.post("/v1/contacts", { email: "twice@example.test" });
    expectError(await org.owner.api.post("/v1/contacts", { email: " TWICE@example.test" }), 409, "CONFLICT");
    // The same email in another organization is another contact.
    expect((await other.owner.api.post("/v1/contacts", { email: "twice@example.test" })).status).toBe(201);
  });

  it("validates the body with a path per problem", async () => {
    const paths = async (body: unknown) => expectError(await org.owner.api.post("/v1/contacts", body), 400, "VALIDATION_ERROR").details!.map((d) => d.path);
    expect(await paths({})).toContain("email");
    expect(await paths({ email: "not-an-email" })).toContain("email");
    expect(await paths({ email: "a@example.test", tags: ["VIP"] })).toContain("tags.0");
    expect(await paths({ email: "a@example.test", first_name: "a\u0000b" })).toContain("first_name");
    expect(await paths({ email: "a@example.test", first_name: "x".repeat(201) })).toContain("first_name");
    expect(await paths({ email: "a@example.test", metadata: { nested: { no: 1 } } })).toContain("metadata.nested");
    expect(await paths({ email: "a@example.test", subscribed: "yes" })).toContain("subscribed");
    expect(await paths({ email: 42 })).toContain("email");
    expect(await paths({ email: `${"a".repeat(310)}@example.test` })).toContain("email");
    expect(await paths({ email: "a@example.test", last_name: "x".repeat(201) })).toContain("last_name");
    expect(await paths({ email: "a@example.test", last_name: 7 })).toContain("last_name");
    expect(await paths({ email: "a@example.test", metadata: { ["k".repeat(101)]: "v" } })).toContain(`metadata.${"k".repeat(101)}`);
    expect(await paths({ email: "a@example.test", metadata: { note: "a\u0000b" } })).toContain("metadata.note");
    expect(await paths({ email: "a@example.test", metadata: { note: "x".repeat(10_001) } })).toContain("metadata.note");
    expect(await paths({ email: "a@example.test", metadata: ["x"] })).toContain("metadata");
    expect(await paths({ email: "a@example.test", tags: ["x".repeat(51)] })).toContain("tags.0");
    expect(await paths({ email: "a@example.test", tags: Array.from({ length: 21 }, (_, i) => `t${i}`) })).toContain("tags");
    expect(await db.contact.count({ where: { organization_id: org.organizationId, email: "a@example.test" } })).toBe(0);
  });

  it("updates only the fields given; email changes are normalized and checked for conflicts", async () => {
    const { body: ada } = await org.owner.api.post("/v1/contacts", { email: "update-me@example.test", first_name: "Ada", last_name: "L", tags: ["a"] });
    await org.owner.api.post("/v1/contacts", { email: "taken@example.test" });
    const renamed = await org.owner.api.put(`/v1/contacts/${ada.id}`, { first_name: "Augusta" });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ first_name: "Augusta", last_name: "L", email: "update-me@example.test", tags: ["a"], subscribed: true });
    expect(new Date(renamed.body.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(ada.updated_at).getTime());

    const conflict = expectError(await org.owner.api.put(`/v1/contacts/${ada.id}`, { email: " Taken@Example.test" }), 409, "CONFLICT");
    expect(conflict.details?.[0].path).toBe("email");
    const moved = await org.owner.api.put(`/v1/contacts/${ada.id}`, { email: " New.Address@Example.test ", last_name: null });
    expect(moved.body).toMatchObject({ email: "new.address@example.test", last_name: null, first_name: "Augusta" });

    const error = expectError(await org.owner.api.put(`/v1/contacts/${ada.id}`, { email: "nope", tags: "x" }), 400, "VALIDATION_ERROR");
    expect(error.details!.map((d) => d.path).sort()).toEqual(["email", "tags"]);
    const before = await org.owner.api.get(`/v1/contacts/${ada.id}`);
    for (const [body, path] of [
      [{ first_name: "x".repeat(201) }, "first_name"],
      [{ last_name: "a\u0000" }, "last_name"],
      [{ subscribed: "no" }, "subscribed"],
      [{ subscribed: null }, "subscribed"],
      [{ metadata: { nested: [1] } }, "metadata.nested"],
      [{ tags: ["Mixed"] }, "tags.0"],
      [{ email: null }, "email"],
    ] as const) {
      const refused = expectError(await org.owner.api.put(`/v1/contacts/${ada.id}`, body), 400, "VALIDATION_ERROR");
      expect(
        refused.details!.map((d) => d.path),
        JSON.stringify(body),
      ).toEqual([path]);
    }
    expect((await org.owner.api.get(`/v1/contacts/${ada.id}`)).body).toEqual(before.body);
  });

  it("sets unsubscribed_at when unsubscribed (once), and clears it when subscribed again", async () => {
    const { body: c } = await org.owner.api.post("/v1/contacts", { email: "sub@example.test" });
    const off = await org.owner.api.put(`/v1/contacts/${c.id}`, { subscribed: false });
    expect(off.body.subscribed).toBe(false);
    expect(off.body.unsubscribed_at).toMatch(ISO_MS);
    const again = await org.owner.api.put(`/v1/contacts/${c.id}`, { subscribed: false });
    expect(again.body.unsubscribed_at).toBe(off.body.unsubscribed_at);
    const untouched = await org.owner.api.put(`/v1/contacts/${c.id}`, { first_name: "Still off" });
    expect(untouched.body).toMatchObject({ subscribed: false, unsubscribed_at: off.body.unsubscribed_at });
    const on = await org.owner.api.put(`/v1/contacts/${c.id}`, { subscribed: true });
    expect(on.body).toMatchObject({ subscribed: true, unsubscribed_at: null });
  });

  it("deletes a contact, and its segment memberships with it", async () => {
    const { body: c } = await org.owner.api.post("/v1/contacts", { email: "delete-me@example.test" });
    const segment = await db.segment.create({ data: { organization_id: org.organizationId, name: "S" } });
    await db.segmentContact.create({ data: { segment_id: segment.id, contact_id: c.id, organization_id: org.organizationId } });
    expect((await org.owner.api.delete(`/v1/contacts/${c.id}`)).body).toEqual({ success: true });
    expectError(await org.owner.api.get(`/v1/contacts/${c.id}`), 404, "NOT_FOUND");
    expectError(await org.owner.api.delete(`/v1/contacts/${c.id}`), 404, "NOT_FOUND");
    expect(await db.segmentContact.count({ where: { segment_id: segment.id } })).toBe(0);
  });

  it("answers 404 for a missing id and another organization's contact, leaving that contact unchanged", async () => {
    const { body: theirs } = await other.owner.api.post("/v1/contacts", { email: "theirs@example.test", first_name: "Theirs" });
    for (const id of [theirs.id, randomId()]) {
      expectError(await org.owner.api.get(`/v1/contacts/${id}`), 404, "NOT_FOUND");
      expectError(await org.owner.api.put(`/v1/contacts/${id}`, { first_name: "Mine now", subscribed: false }), 404, "NOT_FOUND");
      expectError(await org.owner.api.delete(`/v1/contacts/${id}`), 404, "NOT_FOUND");
    }
    const after = await other.owner.api.get(`/v1/contacts/${theirs.id}`);
    expect(after.body).toEqual(theirs);
    expectError(await org.owner.api.get("/v1/contacts/not-a-uuid"), 400, "VALIDATION_ERROR");
    expectError(await org.owner.api.put("/v1/contacts/not-a-uuid", {}), 400, "VALIDATION_ERROR");
    expectError(await org.owner.api.delete("/v1/contacts/not-a-uuid"), 400, "VALIDATION_ERROR");
  });

  it("lets any member manage contacts", async () => {
    const member = await org.addMember("member");
    const created = await member.api.post("/v1/contacts", { email: "by-member@example.test" });
    expect(created.status).toBe(201);
    expect((await member.api.delete(`/v1/contacts/${created.body.id}`)).status).toBe(200);
  });

  it("answers 401 without a credential on every contacts operation", async () => {
    const anonymous = client(null);
    const id = randomId();
    for (const result of [
      await anonymous.get("/v1/contacts"),
      await anonymous.post("/v1/contacts", { email: "x@example.test" }),
      await anonymous.get(`/v1/contacts/${id}`),
      await anonymous.put(`/v1/contacts/${id}`, {}),
      await anonymous.delete(`/v1/contacts/${id}`),
      await anonymous.post("/v1/contacts/bulk", { contacts: [{ email: "x@example.test" }] }),
      await anonymous.post("/v1/contacts/check-emails", { emails: ["x@example.test"] }),
      await anonymous.post("/v1/contacts/import", { file_content: "", column_mappings: [], handle_missing: "create" }),
    ]) {
      expectError(result, 401, "UNAUTHORIZED");
    }
  });
});

describe("POST /v1/contacts/bulk", () => {
  let org: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg();
  });

  it("creates new emails only, counts repeats in the batch once, and leaves existing contacts unchanged", async () => {
    await org.owner.api.post("/v1/contacts", { email: "old@example.test", first_name: "Old" });
    const result = await org.owner.api.post("/v1/contacts/bulk", {
      contacts: [
        { email: "new1@example.test", first_name: "One", tags: ["x"], metadata: { n: 1 } },
        { email: "OLD@example.test", first_name: "Overwritten?" },
        { email: "new2@example.test", subscribed: false },
        { email: " New1@Example.test ", first_name: "Second copy" },
      ],
    });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ imported: 2, total: 4 });
    const rows = await db.contact.findMany({ where: { organization_id: org.organizationId }, orderBy: { email: "asc" } });
    expect(rows.map((r) => r.email)).toEqual(["new1@example.test", "new2@example.test", "old@example.test"]);
    expect(rows[0]).toMatchObject({ first_name: "One", tags: ["x"], metadata: { n: 1 }, subscribed: true, unsubscribed_at: null });
    expect(rows[1].subscribed).toBe(false);
    expect(rows[1].unsubscribed_at).toBeInstanceOf(Date);
    expect(rows[2].first_name).toBe("Old");
  });

  it("validates the whole batch first: one bad element is 400 naming its index, and nothing is written", async () => {
    const before = await db.contact.count({ where: { organization_id: org.organizationId } });
    const contacts = [0, 1, 2, 3, 4].map((i) => ({ email: `batch${i}@example.test` }));
    contacts[3] = { email: "broken" };
    const error = expectError(await org.owner.api.post("/v1/contacts/bulk", { contacts }), 400, "VALIDATION_ERROR");
    expect(error.details!.map((d) => d.path)).toEqual(["contacts.3.email"]);
    const tagError = expectError(
      await org.owner.api.post("/v1/contacts/bulk", { contacts: [{ email: "ok@example.test" }, { email: "t@example.test", tags: ["UPPER"] }] }),
      400,
      "VALIDATION_ERROR",
    );
    expect(tagError.details!.map((d) => d.path)).toEqual(["contacts.1.tags.0"]);
    for (const [element, path] of [
      [{ email: "ok@example.test", first_name: "a\u0000" }, "contacts.1.first_name"],
      [{ email: "ok@example.test", subscribed: "true" }, "contacts.1.subscribed"],
      [{ email: "ok@example.test", metadata: { deep: { x: 1 } } }, "contacts.1.metadata.deep"],
      [{ first_name: "No email" }, "contacts.1.email"],
      ["not an object", "contacts.1"],
    ] as const) {
      const refused = expectError(
        await org.owner.api.post("/v1/contacts/bulk", { contacts: [{ email: "first@example.test" }, element] }),
        400,
        "VALIDATION_ERROR",
      );
      expect(
        refused.details!.map((d) => d.path),
        JSON.stringify(element),
      ).toEqual([path]);
    }
    expect(await db.contact.count({ where: { organization_id: org.organizationId } })).toBe(before);
  });

  it("takes 1 to 10 000 contacts", async () => {
    expectError(await org.owner.api.post("/v1/contacts/bulk", { contacts: [] }), 400, "VALIDATION_ERROR");
    expectError(await org.owner.api.post("/v1/contacts/bulk", {}), 400, "VALIDATION_ERROR");
    const tooMany = Array.from({ length: 10_001 }, (_, i) => ({ email: `many${i}@example.test` }));
    expect(expectError(await org.owner.api.post("/v1/contacts/bulk", { contacts: tooMany }), 400, "VALIDATION_ERROR").details![0].path).toBe("contacts");
    const result = await org.owner.api.post("/v1/contacts/bulk", { contacts: tooMany.slice(0, 10_000) });
    expect(result.body).toEqual({ imported: 10_000, total: 10_000 });
    const again = await org.owner.api.post("/v1/contacts/bulk", { contacts: tooMany.slice(0, 10_000) });
    expect(again.body).toEqual({ imported: 0, total: 10_000 });
  });
});

describe("POST /v1/contacts/check-emails", () => {
  let org: TestOrg;
  let other: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
    await org.owner.api.post("/v1/contacts/bulk", { contacts: [{ email: "alice@example.test" }, { email: "bob@example.test" }] });
    await other.owner.api.post("/v1/contacts", { email: "carol@example.test" });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("answers each string as given, in input order, repeats removed, matched trimmed and case-insensitively", async () => {
    const result = await org.owner.api.post("/v1/contacts/check-emails", {
      emails: [
        "nobody@example.test",
        " ALICE@example.test",
        "carol@example.test",
        "bob@example.test",
        "nobody@example.test",
        "Bob@Example.test",
        "not an email",
      ],
    });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      existing: [" ALICE@example.test", "bob@example.test", "Bob@Example.test"],
      missing: ["nobody@example.test", "carol@example.test", "not an email"],
    });
  });

  it("takes 1 to 10 000 strings", async () => {
    expectError(await org.owner.api.post("/v1/contacts/check-emails", { emails: [] }), 400, "VALIDATION_ERROR");
    const tooMany = Array.from({ length: 10_001 }, (_, i) => `x${i}@example.test`);
    expectError(await org.owner.api.post("/v1/contacts/check-emails", { emails: tooMany }), 400, "VALIDATION_ERROR");
    const bad = expectError(await org.owner.api.post("/v1/contacts/check-emails", { emails: ["a@example.test", 5] }), 400, "VALIDATION_ERROR");
    expect(bad.details![0].path).toBe("emails.1");
    expectError(await org.owner.api.post("/v1/contacts/check-emails", { emails: ["a\u0000@example.test"] }), 400, "VALIDATION_ERROR");
    const long = expectError(await org.owner.api.post("/v1/contacts/check-emails", { emails: ["a@example.test", "x".repeat(321)] }), 400, "VALIDATION_ERROR");
    expect(long.details!.map((d) => d.path)).toEqual(["emails.1"]);
    expect(expectError(await org.owner.api.post("/v1/contacts/check-emails", {}), 400, "VALIDATION_ERROR").details![0].path).toBe("emails");
    expect(expectError(await org.owner.api.post("/v1/contacts/check-emails", { emails: "a@example.test" }), 400, "VALIDATION_ERROR").details![0].path).toBe(
      "emails",
    );
    const exactly = Array.from({ length: 10_000 }, (_, i) => `limit${i}@example.test`);
    const answered = await org.owner.api.post("/v1/contacts/check-emails", { emails: exactly });
    expect(answered.status).toBe(200);
    expect(answered.body.missing).toEqual(exactly);
  });

  it("checks 10 000 addresses with one database round trip", async () => {
    await db.$executeRaw`
      INSERT INTO contacts (organization_id, email)
      SELECT ${org.organizationId}::uuid, 'bulk' || n || '@example.test' FROM generate_series(1, 5000) AS n`;
    const emails = Array.from({ length: 10_000 }, (_, i) => (i % 2 === 0 ? `BULK${i / 2 + 1}@example.test` : `absent${i}@example.test`));
    const ctx: OrgContext = { organizationId: org.organizationId, userId: org.owner.userId, userEmail: org.owner.email, apiKeyId: null, role: "owner" };
    // Counted where statements leave for the server: every pg client query, Prisma's included.
    const sent = vi.spyOn(pg.Client.prototype, "query");
    const raw = vi.spyOn(db, "$queryRaw");
    const result = await checkEmails(ctx, { emails });
    expect(raw).toHaveBeenCalledTimes(1);
    expect(sent).toHaveBeenCalledTimes(1);
    expect(result.existing).toHaveLength(5000);
    expect(result.missing).toHaveLength(5000);
    expect(result.existing[0]).toBe("BULK1@example.test");
    expect(result.missing[0]).toBe("absent1@example.test");
    expect(result.existing.every((e) => e.startsWith("BULK"))).toBe(true);
  });
});

describe("contacts: credentials", () => {
  it("answers 401 to a missing or revoked credential on every contacts operation, changing nothing", async () => {
    const org = await createTestOrg();
    const revoked = await org.owner.api.post("/v1/api-keys", { name: "revoked" });
    expect((await org.owner.api.delete(`/v1/api-keys/${revoked.body.id}`)).body).toEqual({ success: true });
    const { body: contact } = await org.owner.api.post("/v1/contacts", { email: "kept@example.test", first_name: "Kept" });
    const bodies: Record<string, unknown> = {
      "/v1/contacts": { email: "sneaky@example.test" },
      "/v1/contacts/bulk": { contacts: [{ email: "sneaky@example.test" }] },
      "/v1/contacts/check-emails": { emails: ["kept@example.test"] },
      "/v1/contacts/import": {
        file_content: Buffer.from("email,first_name\nkept@example.test,Changed\nsneaky@example.test,New\n").toString("base64"),
        column_mappings: [
          { csv_column: "email", property_name: "email" },
          { csv_column: "first_name", property_name: "first_name" },
        ],
        handle_missing: "create",
      },
      "/v1/contacts/{id}": { first_name: "Changed", subscribed: false },
    };
    const state = () => db.contact.findMany({ where: { organization_id: org.organizationId }, orderBy: { id: "asc" } });
    const before = await state();
    for (const op of contactsOperations) {
      const path = op.path.replace("{id}", contact.id);
      for (const token of [null, revoked.body.token as string]) {
        const result = await request(op.method, path, { token, body: op.body ? bodies[op.path] : undefined });
        expect(result.status, `${op.method} ${path}`).toBe(401);
        expectError(result, 401, "UNAUTHORIZED");
      }
    }
    expect(await state()).toEqual(before);
  });
});
