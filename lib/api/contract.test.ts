import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { operations } from "@/lib/api/operations";
import type { AnyOperation } from "@/lib/api/operation";
import { db } from "@/lib/db";
import { createTestOrg, request, type TestMember, type TestOrg } from "@/lib/testing/api";

// The contract every operation keeps, generated from the registry rather than copied into each
// resource's tests: no credential is 401, a member on an admin operation is 403, a malformed id is
// 400, another organization's record is 404 (never its data), bad paging is the spec's 422.

const paramNames = (op: AnyOperation) => [...op.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
const paramSchema = (op: AnyOperation, name: string) => (op.params as z.ZodObject | undefined)?.shape?.[name] as z.ZodType | undefined;
const isIdParam = (op: AnyOperation, name: string) => {
  const schema = paramSchema(op, name);
  return Boolean(schema?.safeParse(randomUUID()).success && !schema.safeParse("not-an-id").success);
};
const pathWith = (op: AnyOperation, values: Record<string, string>) => op.path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? randomUUID());
const idOperations = operations.filter((op) => paramNames(op).length > 0 && paramNames(op).every((name) => isIdParam(op, name)));
const label = (op: AnyOperation) => `${op.method} ${op.path}`;

let owner: TestOrg;
let stranger: TestOrg;
let member: TestMember;
/** One record of each top-level resource of `owner`'s organization, by the path's first segment. */
const records: Record<string, string> = {};

beforeAll(async () => {
  owner = await createTestOrg("Owner of the records");
  stranger = await createTestOrg("Another organization");
  member = await owner.addMember("member");
  const organization_id = owner.organizationId;
  records.contacts = (await db.contact.create({ data: { organization_id, email: `c-${randomUUID()}@example.test` } })).id;
  records.segments = (await db.segment.create({ data: { organization_id, name: "Owner's segment" } })).id;
  records.topics = (await db.topic.create({ data: { organization_id, name: "Owner's topic" } })).id;
  records.templates = (await db.template.create({ data: { organization_id, name: "Owner's template", subject: "Hi", html_content: "<p>Hi</p>" } })).id;
  records.broadcasts = (
    await db.broadcast.create({ data: { organization_id, name: "Owner's broadcast", subject: "Hi", from_email: "news@owner.test", html_content: "<p>Hi</p>" } })
  ).id;
  records.webhooks = (
    await db.webhook.create({ data: { organization_id, url: "https://hooks.owner.test/in", events: ["email.sent"], secret_encrypted: "x" } })
  ).id;
});

describe("every operation, from the registry", () => {
  it("answers 401 without a credential", async () => {
    for (const op of operations) {
      const result = await request(op.method, pathWith(op, {}), { token: null });
      expect(result.status, label(op)).toBe(401);
      expect(result.body, label(op)).toMatchObject({ code: "UNAUTHORIZED" });
    }
  });

  it("answers 403 to a member on every admin operation", async () => {
    const admin = operations.filter((op) => op.auth === "admin");
    expect(admin.length).toBeGreaterThan(0);
    for (const op of admin) {
      const result = await request(op.method, pathWith(op, {}), { token: member.token });
      expect(result.status, label(op)).toBe(403);
      expect(result.body, label(op)).toMatchObject({ code: "FORBIDDEN" });
    }
  });

  it("answers 400 naming the parameter to a malformed id", async () => {
    expect(idOperations.length).toBeGreaterThan(20);
    for (const op of idOperations) {
      const [first] = paramNames(op);
      const result = await request(op.method, pathWith(op, { [first]: "not-an-id" }), { token: owner.owner.token });
      expect(result.status, label(op)).toBe(400);
      expect(result.body, label(op)).toMatchObject({ code: "VALIDATION_ERROR" });
    }
  });

  it("answers 404 to another organization's record, and never its data", async () => {
    // Where a body or query is required, validation answers first; those operations keep their own tests.
    const reachable = idOperations.filter((op) => (!op.body || op.body.safeParse({}).success) && (!op.query || op.query.safeParse({}).success));
    let checked = 0;
    for (const op of reachable) {
      const resource = op.path.split("/")[2];
      const [first] = paramNames(op);
      if (!records[resource] || first !== "id") continue;
      const result = await request(op.method, pathWith(op, { id: records[resource] }), { token: stranger.owner.token, body: op.body ? {} : undefined });
      expect(result.status, label(op)).toBe(404);
      expect(JSON.stringify(result.body), label(op)).not.toContain(owner.organizationId);
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
    // The records are all still there for their own organization.
    expect((await request("GET", `/v1/segments/${records.segments}`, { token: owner.owner.token })).status).toBe(200);
  });

  it("answers the spec's 422 to paging out of range on every list", async () => {
    const lists = operations.filter((op) => op.page);
    expect(lists.length).toBeGreaterThan(5);
    let checked = 0;
    for (const op of lists) {
      const path = pathWith(op, Object.fromEntries(paramNames(op).map((name) => [name, records[op.path.split("/")[2]] ?? randomUUID()])));
      const result = await request(op.method, `${path}?limit=1000`, { token: owner.owner.token });
      if (result.status === 404) continue; // a nested list under a record this test did not make
      expect(result.status, label(op)).toBe(422);
      expect(result.body, label(op)).toEqual({ name: "validation_error", statusCode: 422, message: expect.any(String) });
      checked++;
    }
    expect(checked).toBeGreaterThan(5);
  });
});
