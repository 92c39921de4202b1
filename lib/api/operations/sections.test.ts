import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { MAX_SECTIONS } from "@/lib/schemas/sections";
import { createTestOrg, expectError, randomId, type TestOrg } from "@/lib/testing/api";

const header = {
  type: "doc",
  content: [{ type: "heading", attrs: { level: 1 }, content: [{ type: "text", text: "Acme News" }] }, { type: "horizontalRule" }],
};

describe("Saved sections", () => {
  let org: TestOrg;
  let other: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
  });

  it("saves blocks (201), lists them newest first, updates and deletes them", async () => {
    const created = await org.owner.api.post("/v1/sections", { name: "Header", kind: "header", content_json: header });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: "Header",
      kind: "header",
      content_json: header,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const plain = await org.owner.api.post("/v1/sections", { name: "Sign-off", content_json: header });
    expect(plain.body.kind).toBe("content");
    const list = await org.owner.api.get("/v1/sections");
    expect(list.body.data.map((s: { id: string }) => s.id)).toEqual([plain.body.id, created.body.id]);
    expect((await other.owner.api.get("/v1/sections")).body.data).toEqual([]);

    const renamed = await org.owner.api.put(`/v1/sections/${created.body.id}`, { name: "Big header" });
    expect(renamed.body).toMatchObject({ name: "Big header", kind: "header", content_json: header });
    expect((await org.owner.api.delete(`/v1/sections/${plain.body.id}`)).body).toEqual({ success: true });
    expect((await org.owner.api.get("/v1/sections")).body.data).toHaveLength(1);
  });

  it("answers another organization's section as missing (404)", async () => {
    const theirs = await other.owner.api.post("/v1/sections", { name: "Theirs", content_json: header });
    expectError(await org.owner.api.put(`/v1/sections/${theirs.body.id}`, { name: "Mine" }), 404, "NOT_FOUND");
    expectError(await org.owner.api.delete(`/v1/sections/${theirs.body.id}`), 404, "NOT_FOUND");
    expectError(await org.owner.api.delete(`/v1/sections/${randomId()}`), 404, "NOT_FOUND");
    expect((await db.section.findUniqueOrThrow({ where: { id: theirs.body.id } })).name).toBe("Theirs");
  });

  it("refuses blocks the editor cannot hold (400) and a section past the organization's limit (409)", async () => {
    const error = expectError(await org.owner.api.post("/v1/sections", { name: "Bad", content_json: { type: "doc", content: [{ type: "script" }] } }), 400);
    expect(error.details?.[0].path).toMatch(/^content_json/);
    const full = await createTestOrg();
    await db.section.createMany({
      data: Array.from({ length: MAX_SECTIONS }, (_, i) => ({ organization_id: full.organizationId, name: `S${i}`, content_json: header })),
    });
    expectError(await full.owner.api.post("/v1/sections", { name: "One more", content_json: header }), 409, "CONFLICT");
  });
});
