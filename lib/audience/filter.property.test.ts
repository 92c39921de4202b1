import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { FIELD_OPS } from "@/lib/schemas/filters";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";

// Whatever filter a client sends — any field, any operator, any value — over contacts whose
// metadata holds whatever was written before the keys were typed, the answer is a 200 or a 400
// naming a path: never a cast error turned 500.

let org: TestOrg;
const LEGACY = ["1e999999", "NaN", "--5", "2026-02-30", "2026-13-01T99:99", "0000-01-01", "99999-01-01", "", " 42 ", "true", "yes", "∞", "1".repeat(400)];

beforeAll(async () => {
  org = await createTestOrg();
  for (const [key, type] of [
    ["plan", "string"],
    ["score", "number"],
    ["vip", "boolean"],
    ["renews_on", "date"],
  ]) {
    await org.owner.api.post("/v1/contact-properties", { key, type });
  }
  // Values written before the keys were typed, straight into the table as an old import would have.
  await db.contact.createMany({
    data: LEGACY.map((value, i) => ({
      organization_id: org.organizationId,
      email: `legacy${i}@example.test`,
      tags: i % 2 ? ["vip"] : [],
      metadata: { plan: i % 3 ? value : 12, score: value, vip: value, renews_on: value, free: i % 2 ? value : 1e300 },
    })),
  });
  await db.event.create({ data: { organization_id: org.organizationId, contact_id: null, name: "purchase", source: "test", occurred_at: new Date() } });
});

const fields = [
  "email",
  "first_name",
  "last_name",
  "subscribed",
  "tags",
  "created_at",
  "metadata.plan",
  "metadata.score",
  "metadata.vip",
  "metadata.renews_on",
  "metadata.free",
  "metadata.__proto__",
  "metadata.a'b",
];
const scalar = fc.oneof(
  fc.constantFrom(...LEGACY, "2026-03-01", "2026-03-01T10:00:00Z", "%", "_", "\\", "'; DROP TABLE contacts; --"),
  fc.string({ maxLength: 12 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -1, 1e308, -1e-308, 36_500),
  fc.boolean(),
);
const value = fc.oneof(scalar, fc.array(scalar, { minLength: 1, maxLength: 4 }), fc.constant(undefined));
const condition = fc.record({ field: fc.constantFrom(...fields), op: fc.constantFrom(...FIELD_OPS), value }, { requiredKeys: ["field", "op"] });
const event = fc.record(
  {
    event: fc.constantFrom("email.opened", "email.clicked", "purchase", "contact.created"),
    op: fc.constantFrom("happened", "not_happened"),
    within_days: fc.integer({ min: 1, max: 36_500 }),
    count_gte: fc.integer({ min: 1, max: 1000 }),
  },
  { requiredKeys: ["event", "op"] },
);
const filter = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    condition,
    event,
    fc.record({ all: fc.array(tie("node"), { maxLength: 3 }) }),
    fc.record({ any: fc.array(tie("node"), { maxLength: 3 }) }),
    fc.record({ not: tie("node") }),
  ),
})).node;

describe("any filter a client sends", () => {
  it("is answered 200 or 400, never 500, by the preview and the contacts list", { timeout: 300_000 }, async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(filter, async (candidate) => {
        const preview = await org.owner.api.post("/v1/segments/preview", { filter: candidate });
        expect([200, 400], JSON.stringify(candidate)).toContain(preview.status);
        if (preview.status === 200) {
          accepted++;
          const list = await org.owner.api.get(`/v1/contacts?limit=5&filter=${encodeURIComponent(JSON.stringify(candidate))}`);
          expect(list.status).toBe(200);
          expect(list.body.total).toBe(preview.body.contacts_count);
        } else {
          expect(preview.body.details.length, JSON.stringify(candidate)).toBeGreaterThan(0);
          expect(preview.body.details[0].path).toMatch(/^filter/);
        }
      }),
      { numRuns: 300 },
    );
    // The generator reaches the SQL, not only the schema.
    expect(accepted).toBeGreaterThan(50);
  });
});
