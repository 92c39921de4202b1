import { beforeAll, describe, expect, it } from "vitest";
import { db, Prisma } from "@/lib/db";
import type { Filter } from "@/lib/schemas/filters";
import { filter as filterSchema } from "@/lib/schemas/filters";
import { filterCondition, segmentCondition, segmentsOfContact } from "./membership";

// Every operator of every kind of field, compiled and run on a real PostgreSQL against contacts
// whose metadata holds typed values and the legacy values written before the keys were typed.

const NOW = new Date("2026-03-15T12:00:00.000Z");
const DAY = 86_400_000;
let org: string;
let broadcastId: string;

beforeAll(async () => {
  org = (await db.organization.create({ data: { name: "Compiler" } })).id;
  await db.contactProperty.createMany({
    data: [
      { organization_id: org, key: "plan", label: "Plan", type: "string" },
      { organization_id: org, key: "score", label: "Score", type: "number" },
      { organization_id: org, key: "vip", label: "VIP", type: "boolean" },
      { organization_id: org, key: "renews_on", label: "Renews on", type: "date" },
    ],
  });
  const at = (days: number) => new Date(NOW.getTime() - days * DAY);
  const contact = (email: string, data: Omit<Prisma.ContactUncheckedCreateInput, "organization_id" | "email">) =>
    db.contact.create({ data: { organization_id: org, email, ...data } });
  const a = await contact("a@example.test", {
    first_name: "Ada",
    last_name: "Lovelace",
    tags: ["vip", "beta"],
    created_at: at(2),
    metadata: { plan: "pro", score: 42, vip: true, renews_on: "2026-03-10", free: "Hello World", count: 7 },
  });
  const b = await contact("b@example.test", {
    first_name: null,
    last_name: "Byron",
    tags: [],
    subscribed: false,
    created_at: at(40),
    metadata: { plan: "free", score: 7.5, vip: false, renews_on: "2026-02-01T10:00:00.000Z", free: "hello", count: "12" },
  });
  // Written before the keys were typed: a number under a string key, text under number, date and boolean keys.
  const c = await contact("c@example.test", {
    first_name: "carl",
    tags: ["beta"],
    created_at: at(400),
    metadata: { plan: 5, score: "n/a", vip: "true", renews_on: "2026-02-30", free: "", count: "many" },
  });
  await contact("d@example.test", { created_at: at(1000), metadata: {} });
  broadcastId = (await db.broadcast.create({ data: { organization_id: org, name: "B", subject: "S", from_email: "b@example.test" } })).id;
  const event = (contactId: string, name: string, daysAgo: number, extra: Partial<Prisma.EventUncheckedCreateInput> = {}) => ({
    organization_id: org,
    contact_id: contactId,
    name,
    source: "test",
    occurred_at: at(daysAgo),
    ...extra,
  });
  await db.event.createMany({
    data: [
      event(a.id, "email.opened", 1),
      event(a.id, "email.opened", 5),
      event(a.id, "email.opened", 45),
      event(b.id, "email.opened", 2, { machine: true }),
      event(c.id, "purchase", 3, { broadcast_id: broadcastId }),
      event(c.id, "purchase", 60),
      event(a.id, "purchase", 3),
      // Another organization's event about the same contact id matches nothing here.
      { ...event(b.id, "purchase", 1), organization_id: (await db.organization.create({ data: { name: "Other" } })).id },
    ],
  });
});

async function matching(filter: Filter): Promise<string[]> {
  expect(filterSchema.safeParse(filter).success, JSON.stringify(filter)).toBe(true);
  const condition = await filterCondition(db, org, filter, { now: NOW });
  const rows = await db.$queryRaw<{ email: string }[]>`SELECT c.email FROM contacts c WHERE c.organization_id = ${org}::uuid AND ${condition} ORDER BY c.email`;
  return rows.map((row) => row.email.slice(0, 1));
}

const cases: [Filter, string][] = [
  // contact fields
  [{ field: "email", op: "eq", value: " A@Example.test " }, "a"],
  [{ field: "email", op: "neq", value: "a@example.test" }, "bcd"],
  [{ field: "email", op: "contains", value: "B@EX" }, "b"],
  [{ field: "email", op: "not_contains", value: "b@" }, "acd"],
  [{ field: "email", op: "starts_with", value: "c" }, "c"],
  [{ field: "email", op: "in", value: ["a@example.test", "D@example.test"] }, "ad"],
  [{ field: "email", op: "exists" }, "abcd"],
  [{ field: "first_name", op: "eq", value: "Ada" }, "a"],
  [{ field: "first_name", op: "neq", value: "Ada" }, "bcd"],
  [{ field: "first_name", op: "contains", value: "AR" }, "c"],
  [{ field: "first_name", op: "exists" }, "ac"],
  [{ field: "first_name", op: "not_exists" }, "bd"],
  [{ field: "last_name", op: "starts_with", value: "by" }, "b"],
  [{ field: "last_name", op: "in", value: ["Byron", "Lovelace"] }, "ab"],
  [{ field: "subscribed", op: "eq", value: false }, "b"],
  [{ field: "subscribed", op: "neq", value: false }, "acd"],
  [{ field: "tags", op: "contains", value: "VIP" }, "a"],
  [{ field: "tags", op: "not_contains", value: "beta" }, "bd"],
  [{ field: "tags", op: "in", value: ["vip", "beta"] }, "ac"],
  [{ field: "tags", op: "exists" }, "ac"],
  [{ field: "tags", op: "not_exists" }, "bd"],
  [{ field: "created_at", op: "within_days", value: 30 }, "a"],
  [{ field: "created_at", op: "before_days", value: 30 }, "bcd"],
  [{ field: "created_at", op: "gt", value: "2026-03-12" }, "a"],
  [{ field: "created_at", op: "gt", value: "2026-03-13" }, ""],
  [{ field: "created_at", op: "lt", value: "2025-03-10T00:00:00Z" }, "cd"],
  [{ field: "created_at", op: "eq", value: "2026-03-13" }, "a"],
  // typed string (a legacy number under it reads as its text)
  [{ field: "metadata.plan", op: "eq", value: "pro" }, "a"],
  [{ field: "metadata.plan", op: "eq", value: "5" }, "c"],
  [{ field: "metadata.plan", op: "neq", value: "pro" }, "bcd"],
  [{ field: "metadata.plan", op: "contains", value: "RO" }, "a"],
  [{ field: "metadata.plan", op: "not_contains", value: "ro" }, "bcd"],
  [{ field: "metadata.plan", op: "starts_with", value: "fr" }, "b"],
  [{ field: "metadata.plan", op: "in", value: ["free", "pro"] }, "ab"],
  [{ field: "metadata.plan", op: "exists" }, "abc"],
  [{ field: "metadata.plan", op: "not_exists" }, "d"],
  // typed number: compared as numbers; "n/a" is no number and fails nothing
  [{ field: "metadata.score", op: "eq", value: 42 }, "a"],
  [{ field: "metadata.score", op: "neq", value: 42 }, "bcd"],
  [{ field: "metadata.score", op: "gt", value: 8 }, "a"],
  [{ field: "metadata.score", op: "gte", value: 7.5 }, "ab"],
  [{ field: "metadata.score", op: "lt", value: 10 }, "b"],
  [{ field: "metadata.score", op: "lte", value: 42 }, "ab"],
  [{ field: "metadata.score", op: "in", value: [7.5, 1] }, "b"],
  [{ field: "metadata.score", op: "exists" }, "ab"],
  [{ field: "metadata.score", op: "not_exists" }, "cd"],
  // typed boolean: the legacy string "true" counts
  [{ field: "metadata.vip", op: "eq", value: true }, "ac"],
  [{ field: "metadata.vip", op: "neq", value: true }, "bd"],
  [{ field: "metadata.vip", op: "exists" }, "abc"],
  [{ field: "metadata.vip", op: "not_exists" }, "d"],
  // typed date: a date alone is its whole UTC day; "2026-02-30" is no date
  [{ field: "metadata.renews_on", op: "eq", value: "2026-03-10" }, "a"],
  [{ field: "metadata.renews_on", op: "eq", value: "2026-02-01T10:00:00Z" }, "b"],
  [{ field: "metadata.renews_on", op: "neq", value: "2026-03-10" }, "bcd"],
  [{ field: "metadata.renews_on", op: "gt", value: "2026-02-01" }, "a"],
  [{ field: "metadata.renews_on", op: "gte", value: "2026-02-01" }, "ab"],
  [{ field: "metadata.renews_on", op: "lt", value: "2026-03-10" }, "b"],
  [{ field: "metadata.renews_on", op: "lte", value: "2026-03-10" }, "ab"],
  [{ field: "metadata.renews_on", op: "within_days", value: 7 }, "a"],
  [{ field: "metadata.renews_on", op: "before_days", value: 7 }, "b"],
  [{ field: "metadata.renews_on", op: "exists" }, "ab"],
  [{ field: "metadata.renews_on", op: "not_exists" }, "cd"],
  // untyped keys: free text, numbers compared as numbers when the value is one
  [{ field: "metadata.free", op: "eq", value: "hello" }, "b"],
  [{ field: "metadata.free", op: "contains", value: "HELLO" }, "ab"],
  [{ field: "metadata.free", op: "exists" }, "ab"],
  [{ field: "metadata.count", op: "eq", value: 12 }, "b"],
  [{ field: "metadata.count", op: "eq", value: "7" }, "a"],
  [{ field: "metadata.count", op: "gt", value: 8 }, "b"],
  [{ field: "metadata.count", op: "lte", value: 7 }, "a"],
  [{ field: "metadata.count", op: "gte", value: "m" }, "c"],
  [{ field: "metadata.count", op: "in", value: [7, "many"] }, "ac"],
  [{ field: "metadata.missing", op: "not_exists" }, "abcd"],
  // events: machine opens are not the contact's; counts, windows and where
  [{ event: "email.opened", op: "happened" }, "a"],
  [{ event: "email.opened", op: "not_happened" }, "bcd"],
  [{ event: "email.opened", op: "happened", within_days: 3 }, "a"],
  [{ event: "email.opened", op: "happened", count_gte: 3 }, "a"],
  [{ event: "email.opened", op: "happened", count_gte: 3, within_days: 30 }, ""],
  [{ event: "purchase", op: "happened", count_gte: 2 }, "c"],
  [{ event: "purchase", op: "not_happened", count_gte: 2 }, "abd"],
  [{ event: "purchase", op: "happened", within_days: 30 }, "ac"],
  // groups
  [{ all: [] }, "abcd"],
  [{ any: [] }, ""],
  [
    {
      all: [
        { field: "tags", op: "contains", value: "beta" },
        { field: "metadata.score", op: "exists" },
      ],
    },
    "a",
  ],
  [
    {
      any: [
        { field: "subscribed", op: "eq", value: false },
        { event: "purchase", op: "happened", count_gte: 2 },
      ],
    },
    "bc",
  ],
  [
    {
      not: {
        any: [
          { field: "email", op: "eq", value: "a@example.test" },
          { field: "metadata.plan", op: "exists" },
        ],
      },
    },
    "d",
  ],
];

describe("compiling the filter language", () => {
  it.each(cases.map(([filter, expected]) => [JSON.stringify(filter), filter, expected] as const))("%s", async (_label, filter, expected) => {
    expect((await matching(filter)).join("")).toBe(expected);
    // Every condition is never NULL: its negation matches exactly the others.
    expect((await matching({ not: filter })).join("")).toBe(
      "abcd"
        .split("")
        .filter((letter) => !expected.includes(letter))
        .join(""),
    );
  });

  it("scopes an event's where to the broadcast named", async () => {
    expect(await matching({ event: "purchase", op: "happened", where: { broadcast_id: broadcastId } })).toEqual(["c"]);
  });

  it("answers a segment's members through one function: static rows, a dynamic filter, nested segments", async () => {
    const contacts = await db.contact.findMany({ where: { organization_id: org }, orderBy: { email: "asc" } });
    const fixed = await db.segment.create({ data: { organization_id: org, name: "Fixed" } });
    await db.segmentContact.createMany({ data: [contacts[1], contacts[3]].map((c) => ({ segment_id: fixed.id, contact_id: c.id, organization_id: org })) });
    const betas = await db.segment.create({ data: { organization_id: org, name: "Betas", filter: { field: "tags", op: "contains", value: "beta" } } });
    const nested = await db.segment.create({
      data: { organization_id: org, name: "Betas or fixed", filter: { any: [{ in_segment: betas.id }, { in_segment: fixed.id }] } },
    });
    const members = async (segmentId: string) => {
      const condition = await segmentCondition(db, org, segmentId, { now: NOW });
      const rows = await db.$queryRaw<
        { email: string }[]
      >`SELECT c.email FROM contacts c WHERE c.organization_id = ${org}::uuid AND ${condition} ORDER BY c.email`;
      return rows.map((row) => row.email.slice(0, 1)).join("");
    };
    expect(await members(fixed.id)).toBe("bd");
    expect(await members(betas.id)).toBe("ac");
    expect(await members(nested.id)).toBe("abcd");
    // One contact's segments, static and dynamic, in one statement.
    expect((await segmentsOfContact(db, org, contacts[0].id, { now: NOW })).sort()).toEqual([betas.id, nested.id].sort());
    expect((await segmentsOfContact(db, org, contacts[1].id, { now: NOW })).sort()).toEqual([fixed.id, nested.id].sort());
    expect(await segmentsOfContact(db, (await db.organization.create({ data: { name: "Elsewhere" } })).id, contacts[0].id)).toEqual([]);
    expect((await matching({ all: [{ in_segment: nested.id }, { not: { in_segment: fixed.id } }] })).join("")).toBe("ac");
    // A segment that no longer exists has no members; named in a filter a client sends, it is a 400.
    expect(await members("00000000-0000-4000-8000-000000000000")).toBe("");
    await expect(filterCondition(db, org, { all: [{ in_segment: "00000000-0000-4000-8000-000000000000" }] })).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
      details: [{ path: "filter.all.0.in_segment" }],
    });
  });

  it("refuses operators a field's type does not take, and values of another type, naming the path", async () => {
    const path = async (filter: Filter) => {
      try {
        await filterCondition(db, org, filter, { now: NOW });
        return "accepted";
      } catch (error) {
        return (error as { details: { path: string }[] }).details[0].path;
      }
    };
    expect(await path({ all: [{ field: "metadata.score", op: "contains", value: "4" }] })).toBe("filter.all.0.op");
    expect(await path({ any: [{ field: "tags", op: "eq", value: "vip" }] })).toBe("filter.any.0.op");
    expect(await path({ not: { field: "metadata.score", op: "gt", value: "4" } })).toBe("filter.not.value");
    expect(await path({ field: "metadata.vip", op: "eq", value: "yes" })).toBe("filter.value");
    expect(await path({ field: "metadata.renews_on", op: "gt", value: "2026-02-30" })).toBe("filter.value");
    expect(await path({ field: "metadata.free", op: "within_days", value: 3 })).toBe("filter.op");
    expect(await path({ field: "subscribed", op: "eq", value: "true" })).toBe("filter.value");
    expect(await path({ event: "purchase", op: "happened", where: { broadcast_id: "00000000-0000-4000-8000-000000000000" } })).toBe(
      "filter.where.broadcast_id",
    );
  });
});
