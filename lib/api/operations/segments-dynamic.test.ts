import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestOrg, expectError, type TestOrg } from "@/lib/testing/api";

const base64 = (text: string) => Buffer.from(text).toString("base64");
const vips = { field: "tags", op: "contains", value: "vip" };

describe("dynamic segments", () => {
  let org: TestOrg;
  let other: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
    await org.owner.api.post("/v1/contact-properties", { key: "score", type: "number" });
    await org.owner.api.post("/v1/contacts/bulk", {
      contacts: [
        { email: "vip1@example.test", tags: ["vip"], metadata: { score: 90 } },
        { email: "vip2@example.test", tags: ["vip"], metadata: { score: 10 } },
        { email: "plain@example.test", metadata: { score: 50 } },
      ],
    });
    await other.owner.api.post("/v1/contacts", { email: "vip-elsewhere@example.test", tags: ["vip"] });
  });

  it("is created with a filter, carries it, and counts its members now; static ones carry null", async () => {
    const created = await org.owner.api.post("/v1/segments", { name: "VIPs", filter: vips });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "VIPs", filter: vips, contacts_count: 2 });
    const { body: fixed } = await org.owner.api.post("/v1/segments", { name: "Fixed" });
    expect(fixed).toMatchObject({ filter: null, contacts_count: 0 });
    // A contact changing its data changes the members, with nothing to recompute.
    const { body: plain } = await org.owner.api.get("/v1/contacts?limit=1&search=plain@");
    await org.owner.api.put(`/v1/contacts/${plain.contacts[0].id}`, { tags: ["vip"] });
    expect((await org.owner.api.get(`/v1/segments/${created.body.id}`)).body.contacts_count).toBe(3);
    const listed = await org.owner.api.get("/v1/segments");
    expect(listed.body.data.find((s: { id: string }) => s.id === created.body.id)).toMatchObject({ filter: vips, contacts_count: 3 });
    const members = await org.owner.api.get(`/v1/contacts?limit=10&segment_id=${created.body.id}`);
    expect(members.body.contacts.map((c: { email: string }) => c.email).sort()).toEqual(["plain@example.test", "vip1@example.test", "vip2@example.test"]);
    await org.owner.api.put(`/v1/contacts/${plain.contacts[0].id}`, { tags: [] });
  });

  it("refuses members added or removed by hand (409 SEGMENT_IS_DYNAMIC), by the API and by an import", async () => {
    const { body: segment } = await org.owner.api.post("/v1/segments", { name: "Scored", filter: { field: "metadata.score", op: "gte", value: 50 } });
    const { body: contact } = await org.owner.api.get("/v1/contacts?limit=1&search=vip2@");
    expectError(await org.owner.api.post(`/v1/segments/${segment.id}/contacts`, { contact_ids: [contact.contacts[0].id] }), 409, "SEGMENT_IS_DYNAMIC");
    expectError(await org.owner.api.delete(`/v1/segments/${segment.id}/contacts/${contact.contacts[0].id}`), 409, "SEGMENT_IS_DYNAMIC");
    const imported = await org.owner.api.post("/v1/contacts/import", {
      file_content: base64("email\nnew-by-import@example.test\n"),
      column_mappings: [{ csv_column: "email", property_name: "email" }],
      handle_missing: "create",
      segment_id: segment.id,
    });
    expectError(imported, 409, "SEGMENT_IS_DYNAMIC");
    expect((await org.owner.api.get("/v1/contacts?limit=1&search=new-by-import")).body.total).toBe(0);
  });

  it("previews a filter: the count and up to 10 contacts, newest first, saving nothing", async () => {
    const before = await db.segment.count({ where: { organization_id: org.organizationId } });
    const preview = await org.owner.api.post("/v1/segments/preview", { filter: { all: [vips, { field: "metadata.score", op: "gt", value: 20 }] } });
    expect(preview.status).toBe(200);
    expect(preview.body.contacts_count).toBe(1);
    expect(preview.body.sample.map((c: { email: string }) => c.email)).toEqual(["vip1@example.test"]);
    const everyone = await org.owner.api.post("/v1/segments/preview", { filter: { all: [] } });
    expect(everyone.body.contacts_count).toBe(3);
    expect(everyone.body.sample.map((c: { email: string }) => c.email).sort()).toEqual(["plain@example.test", "vip1@example.test", "vip2@example.test"]);
    expect(await db.segment.count({ where: { organization_id: org.organizationId } })).toBe(before);
    // Never another organization's contacts.
    const theirs = await other.owner.api.post("/v1/segments/preview", { filter: vips });
    expect(theirs.body).toMatchObject({ contacts_count: 1, sample: [{ email: "vip-elsewhere@example.test" }] });
  });

  it("samples at most 10", async () => {
    const fresh = await createTestOrg();
    await fresh.owner.api.post("/v1/contacts/bulk", { contacts: Array.from({ length: 15 }, (_, i) => ({ email: `s${i}@example.test` })) });
    const preview = await fresh.owner.api.post("/v1/segments/preview", { filter: { field: "email", op: "starts_with", value: "s" } });
    expect(preview.body.contacts_count).toBe(15);
    expect(preview.body.sample).toHaveLength(10);
  });

  it("answers a bad filter with 400 naming its path, on every operation that takes one", async () => {
    const badFilters: [unknown, string][] = [
      [{ all: [vips, { field: "metadata.score", op: "contains", value: "9" }] }, "filter.all.1.op"],
      [{ any: [{ field: "metadata.score", op: "gt", value: "nine" }] }, "filter.any.0.value"],
      [{ not: { field: "colour", op: "eq", value: "red" } }, "filter.not.field"],
      [{ in_segment: "00000000-0000-4000-8000-000000000000" }, "filter.in_segment"],
      [{ event: "email.seen", op: "happened" }, "filter.event"],
      [{ all: [{ all: [{ all: [{ all: [{ all: [{ all: [vips] }] }] }] }] }] }, "filter.all.0.all.0.all.0.all.0.all.0.all"],
      [{ any: Array.from({ length: 51 }, () => vips) }, "filter.any"],
      ["vip", "filter"],
    ];
    const { body: dynamic } = await org.owner.api.post("/v1/segments", { name: "For updates", filter: vips });
    for (const [filter, path] of badFilters) {
      const label = JSON.stringify(filter).slice(0, 60);
      for (const result of [
        await org.owner.api.post("/v1/segments", { name: "Bad", filter }),
        await org.owner.api.put(`/v1/segments/${dynamic.id}`, { filter }),
        await org.owner.api.post("/v1/segments/preview", { filter }),
        await org.owner.api.get(`/v1/contacts?limit=5&filter=${encodeURIComponent(JSON.stringify(filter))}`),
      ]) {
        expect(
          expectError(result, 400, "VALIDATION_ERROR").details!.map((d) => d.path),
          label,
        ).toContain(path);
      }
    }
    expect((await org.owner.api.get(`/v1/segments/${dynamic.id}`)).body.filter).toEqual(vips);
    const notJson = await org.owner.api.get(`/v1/contacts?filter=${encodeURIComponent("{all:")}`);
    expect(expectError(notJson, 400, "VALIDATION_ERROR").details).toEqual([{ path: "filter", message: "must be URL-encoded JSON" }]);
  });

  it("filters the contacts list, combined with the other parameters", async () => {
    const filter = encodeURIComponent(JSON.stringify({ field: "metadata.score", op: "lt", value: 60 }));
    const page = await org.owner.api.get(`/v1/contacts?limit=10&filter=${filter}&tags=vip`);
    expect(page.body.total).toBe(1);
    expect(page.body.contacts.map((c: { email: string }) => c.email)).toEqual(["vip2@example.test"]);
    const streamed = await org.owner.api.get(`/v1/contacts?filter=${filter}`);
    expect(streamed.body.contacts.map((c: { email: string }) => c.email).sort()).toEqual(["plain@example.test", "vip2@example.test"]);
  });

  it("changes a dynamic segment's filter; a static one takes none, a dynamic one keeps one", async () => {
    const { body: segment } = await org.owner.api.post("/v1/segments", { name: "Editable", filter: vips });
    const edited = await org.owner.api.put(`/v1/segments/${segment.id}`, { name: "High scores", filter: { field: "metadata.score", op: "gte", value: 50 } });
    expect(edited.body).toMatchObject({ name: "High scores", filter: { field: "metadata.score", op: "gte", value: 50 }, contacts_count: 2 });
    expect(expectError(await org.owner.api.put(`/v1/segments/${segment.id}`, { filter: null }), 400, "VALIDATION_ERROR").details![0].path).toBe("filter");
    const { body: fixed } = await org.owner.api.post("/v1/segments", { name: "Static" });
    expect(expectError(await org.owner.api.put(`/v1/segments/${fixed.id}`, { filter: vips }), 400, "VALIDATION_ERROR").details![0].path).toBe("filter");
    expect((await org.owner.api.put(`/v1/segments/${fixed.id}`, { filter: null, name: "Still static" })).body).toMatchObject({
      name: "Still static",
      filter: null,
    });
  });

  it("includes other segments, refuses cycles, and keeps an included segment from being deleted", async () => {
    const { body: fixed } = await org.owner.api.post("/v1/segments", { name: "Hand-picked" });
    const { body: contact } = await org.owner.api.get("/v1/contacts?limit=1&search=plain@");
    await org.owner.api.post(`/v1/segments/${fixed.id}/contacts`, { contact_ids: [contact.contacts[0].id] });
    const { body: a } = await org.owner.api.post("/v1/segments", { name: "A", filter: { any: [vips, { in_segment: fixed.id }] } });
    expect(a.contacts_count).toBe(3);
    const { body: b } = await org.owner.api.post("/v1/segments", {
      name: "B",
      filter: { all: [{ in_segment: a.id }, { field: "metadata.score", op: "gt", value: 40 }] },
    });
    expect(b.contacts_count).toBe(2);
    // A including B, which includes A, would be a cycle; A including itself too.
    const cycle = await org.owner.api.put(`/v1/segments/${a.id}`, { filter: { any: [vips, { in_segment: b.id }] } });
    expect(expectError(cycle, 400, "VALIDATION_ERROR").details![0].path).toBe("filter.any.1.in_segment");
    const self = await org.owner.api.put(`/v1/segments/${a.id}`, { filter: { not: { in_segment: a.id } } });
    expect(expectError(self, 400, "VALIDATION_ERROR").details![0].path).toBe("filter.not.in_segment");
    const inUse = expectError(await org.owner.api.delete(`/v1/segments/${a.id}`), 409, "CONFLICT");
    expect(inUse.error).toContain('"B"');
    expect((await org.owner.api.delete(`/v1/segments/${b.id}`)).body).toEqual({ success: true });
    expect((await org.owner.api.delete(`/v1/segments/${a.id}`)).body).toEqual({ success: true });
  });

  it("bounds what included segments add up to: 20 inclusions of a 30-condition segment are 400", async () => {
    const { body: wide } = await org.owner.api.post("/v1/segments", { name: "Wide", filter: { any: Array.from({ length: 30 }, () => vips) } });
    const tooMany = await org.owner.api.post("/v1/segments/preview", { filter: { any: Array.from({ length: 20 }, () => ({ in_segment: wide.id })) } });
    const [detail] = expectError(tooMany, 400, "VALIDATION_ERROR").details!;
    expect(detail.path).toMatch(/^filter\.any\.\d+\.in_segment/);
    expect(detail.message).toContain("more than 500 conditions");
    const fine = await org.owner.api.post("/v1/segments/preview", { filter: { any: Array.from({ length: 10 }, () => ({ in_segment: wide.id })) } });
    expect(fine.body.contacts_count).toBe(2);
  });

  it("keeps organizations apart: another organization's segment is 404 and cannot be included", async () => {
    const { body: theirs } = await other.owner.api.post("/v1/segments", { name: "Theirs", filter: vips });
    expectError(await org.owner.api.get(`/v1/segments/${theirs.id}`), 404, "NOT_FOUND");
    expectError(await org.owner.api.put(`/v1/segments/${theirs.id}`, { filter: vips }), 404, "NOT_FOUND");
    expectError(await org.owner.api.delete(`/v1/segments/${theirs.id}`), 404, "NOT_FOUND");
    const included = await org.owner.api.post("/v1/segments/preview", { filter: { in_segment: theirs.id } });
    expect(expectError(included, 400, "VALIDATION_ERROR").details![0].path).toBe("filter.in_segment");
    const listed = await org.owner.api.get(`/v1/contacts?limit=5&segment_id=${theirs.id}`);
    expect(expectError(listed, 400, "VALIDATION_ERROR").details![0].path).toBe("segment_id");
    const { body: broadcast } = await other.owner.api.post("/v1/broadcasts", { name: "B", subject: "S", from_email: "x@example.test" });
    const byBroadcast = await org.owner.api.post("/v1/segments/preview", {
      filter: { event: "email.opened", op: "happened", where: { broadcast_id: broadcast.id } },
    });
    expect(expectError(byBroadcast, 400, "VALIDATION_ERROR").details![0].path).toBe("filter.where.broadcast_id");
  });
});
