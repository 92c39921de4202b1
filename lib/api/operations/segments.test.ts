import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { client, createTestOrg, expectError, randomId, request, type TestOrg } from "@/lib/testing/api";
import { segmentsOperations } from "./segments";

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe("segments", () => {
  let org: TestOrg;
  let other: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
  });

  const newContact = (target: TestOrg, email: string) => db.contact.create({ data: { organization_id: target.organizationId, email } });

  it("creates, retrieves and updates a segment carrying contacts_count", async () => {
    const created = await org.owner.api.post("/v1/segments", { name: "Customers", description: "Paying", contacts_count: 99, id: randomId() });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Customers", description: "Paying", contacts_count: 0, organization_id: org.organizationId });
    expect(created.body.created_at).toMatch(ISO_MS);
    const fetched = await org.owner.api.get(`/v1/segments/${created.body.id}`);
    expect(fetched.body).toEqual(created.body);

    const a = await newContact(org, "seg-a@example.test");
    await db.segmentContact.create({ data: { segment_id: created.body.id, contact_id: a.id, organization_id: org.organizationId } });
    const renamed = await org.owner.api.put(`/v1/segments/${created.body.id}`, { name: "Clients" });
    expect(renamed.body).toMatchObject({ name: "Clients", description: "Paying", contacts_count: 1 });
    const cleared = await org.owner.api.put(`/v1/segments/${created.body.id}`, { description: null });
    expect(cleared.body).toMatchObject({ name: "Clients", description: null });
    const noDescription = await org.owner.api.post("/v1/segments", { name: "Bare" });
    expect(noDescription.body.description).toBeNull();
  });

  it("validates names and descriptions", async () => {
    const path = async (body: unknown) => expectError(await org.owner.api.post("/v1/segments", body), 400, "VALIDATION_ERROR").details![0].path;
    expect(await path({})).toBe("name");
    expect(await path({ name: "" })).toBe("name");
    expect(await path({ name: "x".repeat(201) })).toBe("name");
    expect(await path({ name: "a\u0000" })).toBe("name");
    expect(await path({ name: "ok", description: 5 })).toBe("description");
    expect(await path({ name: "ok", description: "x".repeat(1001) })).toBe("description");
    expect(await path({ name: "ok", description: "a\u0000" })).toBe("description");
    expect(await path({ name: 12 })).toBe("name");
    const { body: segment } = await org.owner.api.post("/v1/segments", { name: "Valid" });
    expect(expectError(await org.owner.api.put(`/v1/segments/${segment.id}`, { name: "" }), 400, "VALIDATION_ERROR").details![0].path).toBe("name");
    for (const [body, field] of [
      [{ name: null }, "name"],
      [{ name: "x".repeat(201) }, "name"],
      [{ description: "x".repeat(1001) }, "description"],
      [{ description: "\u0000" }, "description"],
    ] as const) {
      const error = expectError(await org.owner.api.put(`/v1/segments/${segment.id}`, body), 400, "VALIDATION_ERROR");
      expect(
        error.details!.map((d) => d.path),
        JSON.stringify(body).slice(0, 40),
      ).toEqual([field]);
    }
    expect((await org.owner.api.get(`/v1/segments/${segment.id}`)).body).toEqual(segment);
  });

  it("lists every segment newest first, or pages with limit, after and before", async () => {
    const fresh = await createTestOrg();
    for (const name of ["s1", "s2", "s3", "s4"]) await fresh.owner.api.post("/v1/segments", { name });
    const all = await fresh.owner.api.get("/v1/segments");
    expect(all.body).toMatchObject({ object: "list", has_more: false });
    expect(all.body.data.map((s: { name: string }) => s.name)).toEqual(["s4", "s3", "s2", "s1"]);
    expect(all.body.data.every((s: { contacts_count: number }) => s.contacts_count === 0)).toBe(true);
    const first = await fresh.owner.api.get("/v1/segments?limit=2");
    expect(first.body.has_more).toBe(true);
    expect(first.body.data.map((s: { name: string }) => s.name)).toEqual(["s4", "s3"]);
    const second = await fresh.owner.api.get(`/v1/segments?limit=2&after=${first.body.data[1].id}`);
    expect(second.body.data.map((s: { name: string }) => s.name)).toEqual(["s2", "s1"]);
    expect(second.body.has_more).toBe(false);
    const back = await fresh.owner.api.get(`/v1/segments?limit=2&before=${second.body.data[0].id}`);
    expect(back.body.data.map((s: { name: string }) => s.name)).toEqual(["s4", "s3"]);
    for (const query of [
      "limit=0",
      "limit=101",
      "limit=x",
      "after=nope",
      `after=${randomId()}`,
      `before=${all.body.data[0].id}&after=${all.body.data[1].id}`,
    ]) {
      const result = await fresh.owner.api.get(`/v1/segments?${query}`);
      expect(result.status, query).toBe(422);
      expect(result.body).toMatchObject({ name: "validation_error", statusCode: 422 });
    }
    // Another organization's segment is not an item of this list.
    const { body: theirs } = await other.owner.api.post("/v1/segments", { name: "theirs" });
    expect((await fresh.owner.api.get(`/v1/segments?after=${theirs.id}`)).status).toBe(422);
    expect((await fresh.owner.api.get("/v1/segments")).body.data.some((s: { id: string }) => s.id === theirs.id)).toBe(false);
  });

  it("returns every segment without limit, not a first page of 20", async () => {
    const fresh = await createTestOrg();
    await db.segment.createMany({ data: Array.from({ length: 25 }, (_, i) => ({ organization_id: fresh.organizationId, name: `s${i}` })) });
    const all = await fresh.owner.api.get("/v1/segments");
    expect(all.body.data).toHaveLength(25);
    expect(all.body.has_more).toBe(false);
    const page = await fresh.owner.api.get("/v1/segments?limit=20");
    expect(page.body.data).toHaveLength(20);
    expect(page.body.has_more).toBe(true);
  });

  it("adds contacts by id and by email, counting only new members", async () => {
    const { body: segment } = await org.owner.api.post("/v1/segments", { name: "Members" });
    const [a, b, c] = await Promise.all(["m-a@example.test", "m-b@example.test", "m-c@example.test"].map((e) => newContact(org, e)));
    const first = await org.owner.api.post(`/v1/segments/${segment.id}/contacts`, { contact_ids: [a.id, b.id, a.id] });
    // An action on the segment, not the creation of a record: 200.
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ added: 2 });
    const second = await org.owner.api.post(`/v1/segments/${segment.id}/contacts`, {
      contact_ids: [b.id.toUpperCase()],
      emails: [" M-C@example.test", "m-a@example.test"],
    });
    expect(second.body).toEqual({ added: 1 });
    expect((await org.owner.api.get(`/v1/segments/${segment.id}`)).body.contacts_count).toBe(3);
    const listed = await org.owner.api.get(`/v1/contacts?segment_id=${segment.id}`);
    expect(listed.body.contacts.map((x: { id: string }) => x.id).sort()).toEqual([a.id, b.id, c.id].sort());
  });

  it("refuses membership changes naming contacts outside the organization, adding nothing", async () => {
    const { body: segment } = await org.owner.api.post("/v1/segments", { name: "Strict" });
    const mine = await newContact(org, "strict-mine@example.test");
    const theirs = await newContact(other, "strict-theirs@example.test");
    const bad = async (body: unknown) =>
      expectError(await org.owner.api.post(`/v1/segments/${segment.id}/contacts`, body), 400, "VALIDATION_ERROR").details![0].path;
    expect(await bad({ contact_ids: [mine.id, theirs.id] })).toBe("contact_ids.1");
    expect(await bad({ contact_ids: [mine.id], emails: ["nobody@example.test"] })).toBe("emails.0");
    expect(await bad({ emails: ["strict-mine@example.test", "strict-theirs@example.test"] })).toBe("emails.1");
    expect(await bad({ contact_ids: ["nope"] })).toBe("contact_ids.0");
    expect(await bad({ emails: ["not an email"] })).toBe("emails.0");
    expect(await bad({})).toBe("contact_ids");
    expect(await bad({ contact_ids: [], emails: [] })).toBe("contact_ids");
    expect(await db.segmentContact.count({ where: { segment_id: segment.id } })).toBe(0);
  });

  it("removes a contact from a segment, the contact staying", async () => {
    const { body: segment } = await org.owner.api.post("/v1/segments", { name: "Removal" });
    const contact = await newContact(org, "removal@example.test");
    await org.owner.api.post(`/v1/segments/${segment.id}/contacts`, { contact_ids: [contact.id] });
    expect((await org.owner.api.delete(`/v1/segments/${segment.id}/contacts/${contact.id}`)).body).toEqual({ success: true });
    expect((await org.owner.api.get(`/v1/segments/${segment.id}`)).body.contacts_count).toBe(0);
    expect(await db.contact.findUnique({ where: { id: contact.id } })).not.toBeNull();
    // Already out: still a success.
    expect((await org.owner.api.delete(`/v1/segments/${segment.id}/contacts/${contact.id}`)).body).toEqual({ success: true });
    expectError(await org.owner.api.delete(`/v1/segments/${segment.id}/contacts/${randomId()}`), 404, "NOT_FOUND");
    expectError(await org.owner.api.delete(`/v1/segments/${randomId()}/contacts/${contact.id}`), 404, "NOT_FOUND");
    expectError(await org.owner.api.delete(`/v1/segments/${segment.id}/contacts/nope`), 400, "VALIDATION_ERROR");
  });

  it("deletes a segment: contacts kept, broadcasts' segment_id cleared, exit conditions purged, in the organization only", async () => {
    const { body: segment } = await org.owner.api.post("/v1/segments", { name: "Doomed" });
    const { body: kept } = await org.owner.api.post("/v1/segments", { name: "Kept" });
    const contact = await newContact(org, "doomed-member@example.test");
    await org.owner.api.post(`/v1/segments/${segment.id}/contacts`, { contact_ids: [contact.id] });
    const broadcast = (data: object) =>
      db.broadcast.create({ data: { organization_id: org.organizationId, name: "B", subject: "S", from_email: "b@example.test", ...data } });
    const targeting = await broadcast({ segment_id: segment.id });
    const exiting = await broadcast({
      segment_id: kept.id,
      sequence_exit_conditions: { exit_if_in_segment_ids: [kept.id, segment.id.toUpperCase()], exit_if_not_in_segment_ids: [segment.id], note: "kept" },
    });
    const partial = await broadcast({ sequence_exit_conditions: { exit_if_in_segment_ids: [segment.id] } });
    const untouched = await broadcast({ sequence_exit_conditions: { exit_if_in_segment_ids: [kept.id] } });
    const nulled = await broadcast({});

    expect((await org.owner.api.delete(`/v1/segments/${segment.id}`)).body).toEqual({ success: true });
    expectError(await org.owner.api.get(`/v1/segments/${segment.id}`), 404, "NOT_FOUND");
    expect(await db.contact.findUnique({ where: { id: contact.id } })).not.toBeNull();
    expect(await db.segmentContact.count({ where: { segment_id: segment.id } })).toBe(0);
    const after = async (id: string) => db.broadcast.findUniqueOrThrow({ where: { id } });
    expect((await after(targeting.id)).segment_id).toBeNull();
    const exited = await after(exiting.id);
    expect(exited.segment_id).toBe(kept.id);
    expect(exited.sequence_exit_conditions).toEqual({ exit_if_in_segment_ids: [kept.id], exit_if_not_in_segment_ids: [], note: "kept" });
    expect((await after(partial.id)).sequence_exit_conditions).toEqual({ exit_if_in_segment_ids: [] });
    expect(await after(untouched.id)).toEqual(untouched);
    expect(await after(nulled.id)).toEqual(nulled);
    expectError(await org.owner.api.delete(`/v1/segments/${segment.id}`), 404, "NOT_FOUND");
  });

  it("answers 404 for a missing id and another organization's segment, leaving it unchanged", async () => {
    const { body: theirs } = await other.owner.api.post("/v1/segments", { name: "Theirs", description: "Not yours" });
    const theirContact = await newContact(other, "their-member@example.test");
    await other.owner.api.post(`/v1/segments/${theirs.id}/contacts`, { contact_ids: [theirContact.id] });
    const mine = await newContact(org, "mine-for-404@example.test");
    for (const id of [theirs.id, randomId()]) {
      expectError(await org.owner.api.get(`/v1/segments/${id}`), 404, "NOT_FOUND");
      expectError(await org.owner.api.put(`/v1/segments/${id}`, { name: "Hijacked" }), 404, "NOT_FOUND");
      expectError(await org.owner.api.delete(`/v1/segments/${id}`), 404, "NOT_FOUND");
      expectError(await org.owner.api.post(`/v1/segments/${id}/contacts`, { contact_ids: [mine.id] }), 404, "NOT_FOUND");
      expectError(await org.owner.api.delete(`/v1/segments/${id}/contacts/${theirContact.id}`), 404, "NOT_FOUND");
    }
    // Their segment with my contact id, and my segment with their contact id.
    const { body: own } = await org.owner.api.post("/v1/segments", { name: "Own" });
    expectError(await org.owner.api.delete(`/v1/segments/${own.id}/contacts/${theirContact.id}`), 404, "NOT_FOUND");
    expect((await other.owner.api.get(`/v1/segments/${theirs.id}`)).body).toEqual({ ...theirs, contacts_count: 1 });
    expect(await db.segmentContact.count({ where: { segment_id: theirs.id } })).toBe(1);
    expectError(await org.owner.api.get("/v1/segments/nope"), 400, "VALIDATION_ERROR");
    expectError(await org.owner.api.put("/v1/segments/nope", { name: "x" }), 400, "VALIDATION_ERROR");
    expectError(await org.owner.api.delete("/v1/segments/nope"), 400, "VALIDATION_ERROR");
    expectError(await org.owner.api.post("/v1/segments/nope/contacts", { contact_ids: [mine.id] }), 400, "VALIDATION_ERROR");
  });

  it("answers 401 without a credential", async () => {
    const anonymous = client(null);
    const id = randomId();
    for (const result of [
      await anonymous.get("/v1/segments"),
      await anonymous.post("/v1/segments", { name: "x" }),
      await anonymous.get(`/v1/segments/${id}`),
      await anonymous.put(`/v1/segments/${id}`, { name: "x" }),
      await anonymous.delete(`/v1/segments/${id}`),
      await anonymous.post(`/v1/segments/${id}/contacts`, { contact_ids: [id] }),
      await anonymous.delete(`/v1/segments/${id}/contacts/${id}`),
    ]) {
      expectError(result, 401, "UNAUTHORIZED");
    }
  });

  it("answers 401 to a revoked credential on every segment operation, changing nothing", async () => {
    const revoked = await org.owner.api.post("/v1/api-keys", { name: "revoked" });
    expect((await org.owner.api.delete(`/v1/api-keys/${revoked.body.id}`)).body).toEqual({ success: true });
    const { body: segment } = await org.owner.api.post("/v1/segments", { name: "Guarded" });
    const member = await newContact(org, "guarded-member@example.test");
    const outsider = await newContact(org, "guarded-outsider@example.test");
    await org.owner.api.post(`/v1/segments/${segment.id}/contacts`, { contact_ids: [member.id] });
    const state = async () => ({
      segments: await db.segment.findMany({ where: { organization_id: org.organizationId }, orderBy: { id: "asc" } }),
      members: await db.segmentContact.findMany({ where: { organization_id: org.organizationId }, orderBy: [{ segment_id: "asc" }, { contact_id: "asc" }] }),
    });
    const before = await state();
    for (const op of segmentsOperations) {
      const path = op.path.replace("{id}", segment.id).replace("{contactId}", member.id);
      const body = op.body ? { name: "Changed", contact_ids: [outsider.id] } : undefined;
      const result = await request(op.method, path, { token: revoked.body.token, body });
      expect(result.status, `${op.method} ${path}`).toBe(401);
      expectError(result, 401, "UNAUTHORIZED");
    }
    expect(await state()).toEqual(before);
  });
});
