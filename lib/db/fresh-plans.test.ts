import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "@/lib/db";
import { keepQueueStatisticsCurrent, keepStatisticsCurrent } from "@/lib/db/statistics";
import { audienceCondition } from "@/lib/audience/reachable";
import { fanOutChunkSql, type FanningBroadcast } from "@/lib/sending/fan-out";
import { segmentMembersChunkSql } from "@/lib/audience/membership";
import { createIsolatedDatabase, type IsolatedDatabase } from "@/lib/testing/isolated-database";

type PlanNode = {
  "Node Type": string;
  "Plan Rows": number;
  "Join Type"?: string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Parent Relationship"?: string;
  Plans?: PlanNode[];
};

const AUDIENCE = 20_000;
let database: IsolatedDatabase;
let organizationId: string;
let segmentId: string;

// A database of its own whose tables autovacuum never analyzes: what the planner knows right after
// a large import, before autovacuum has come round, held still so the test is deterministic.
beforeAll(async () => {
  database = await createIsolatedDatabase("fresh_plans");
  const { db } = database;
  for (const table of ["contacts", "segment_contacts", "suppressions", "emails"])
    await db.$executeRawUnsafe(`ALTER TABLE ${table} SET (autovacuum_enabled = off)`);
  [{ id: organizationId }] = await db.$queryRaw<{ id: string }[]>`INSERT INTO organizations (name) VALUES ('Plans') RETURNING id`;
  [{ id: segmentId }] = await db.$queryRaw<
    { id: string }[]
  >`INSERT INTO segments (organization_id, name) VALUES (${organizationId}::uuid, 'Imported') RETURNING id`;
}, 120_000);
afterAll(() => database?.drop());

async function audiencePlan(): Promise<PlanNode> {
  const condition = await audienceCondition(database.db, { organizationId, segmentId, topicId: null });
  const [row] = await database.db.$queryRaw<{ "QUERY PLAN": [{ Plan: PlanNode }] }[]>(
    Prisma.sql`EXPLAIN (FORMAT JSON) SELECT count(*) FROM contacts c WHERE ${condition}`,
  );
  return row["QUERY PLAN"][0].Plan;
}

const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

describe("the audience's plan on freshly loaded tables", () => {
  it("is planned for one row and nested loops before the statistics are refreshed, and for the list after", { timeout: 120_000 }, async () => {
    const { db } = database;
    // What an import writes: the contacts, and their memberships of its segment.
    await db.$executeRaw`INSERT INTO contacts (organization_id, email) SELECT ${organizationId}::uuid, 'p' || n || '@example.test' FROM generate_series(1, ${AUDIENCE}::int) n`;
    await db.$executeRaw`INSERT INTO segment_contacts (segment_id, contact_id, organization_id) SELECT ${segmentId}::uuid, id, organization_id FROM contacts`;

    // The measured bad plan: the join of 20 000 contacts estimated at a handful of rows, so each is
    // probed by a nested loop (at scale, the 11.7 s audience count of the first send after an import).
    const stale = await audiencePlan();
    expect(stale["Node Type"]).toBe("Aggregate");
    expect(stale.Plans![0]["Plan Rows"]).toBeLessThan(100);
    expect(nodes(stale).some((node) => node["Node Type"] === "Nested Loop")).toBe(true);

    expect(await keepStatisticsCurrent(["contacts", "segment_contacts"], AUDIENCE, db)).toEqual(["contacts", "segment_contacts"]);
    const current = await audiencePlan();
    expect(current.Plans![0]["Plan Rows"]).toBeGreaterThan(AUDIENCE / 2);
    expect(nodes(current).some((node) => node["Node Type"] === "Nested Loop")).toBe(false);
  });

  it("leaves small writes, and writes small for their table, to autovacuum", async () => {
    const { db } = database;
    expect(await keepStatisticsCurrent(["contacts"], 999, db)).toEqual([]);
    // 1 500 new rows in a table analyzed at 20 000 is under a tenth of it.
    expect(await keepStatisticsCurrent(["contacts"], 1_500, db)).toEqual([]);
    expect(await keepStatisticsCurrent(["contacts"], 2_500, db)).toEqual(["contacts"]);
    // A table never analyzed is always worth it once the write is not small.
    expect(await keepStatisticsCurrent(["emails"], 1_000, db)).toEqual(["emails"]);
  });

  it("vacuums as well after an import, so that autovacuum's pass over the new rows does not come during the send", async () => {
    const { db } = database;
    const vacuumed = async () =>
      (await db.$queryRaw<{ at: Date | null }[]>`SELECT last_vacuum AS at FROM pg_stat_user_tables WHERE relname = 'segment_contacts'`)[0].at;
    expect(await vacuumed()).toBeNull();
    expect(await keepStatisticsCurrent(["segment_contacts"], AUDIENCE, db, { vacuum: true })).toEqual(["segment_contacts"]);
    expect(await vacuumed()).not.toBeNull();
  });
});

describe("the fan-out's plan while it writes a broadcast the statistics have not seen", () => {
  it("probes each recipient's existing email by the unique key instead of joining all of them", { timeout: 120_000 }, async () => {
    const { db } = database;
    const [{ id: org }] = await db.$queryRaw<{ id: string }[]>`INSERT INTO organizations (name) VALUES ('Fan-out plans') RETURNING id`;
    const [{ id: segment }] = await db.$queryRaw<{ id: string }[]>`INSERT INTO segments (organization_id, name) VALUES (${org}::uuid, 'All') RETURNING id`;
    await db.$executeRaw`INSERT INTO contacts (organization_id, email) SELECT ${org}::uuid, 'f' || n || '@example.test' FROM generate_series(1, ${AUDIENCE}::int) n`;
    await db.$executeRaw`INSERT INTO segment_contacts (segment_id, contact_id, organization_id) SELECT ${segment}::uuid, id, organization_id FROM contacts WHERE organization_id = ${org}::uuid`;
    const broadcast = async (name: string) => {
      const [row] = await db.$queryRaw<{ id: string }[]>`
        INSERT INTO broadcasts (organization_id, name, subject, from_email, segment_id, status, html_content)
        VALUES (${org}::uuid, ${name}, 'News', 'news@example.test', ${segment}::uuid, 'sending', '<p>Hi</p>') RETURNING id`;
      return row.id;
    };
    const writeEmails = (broadcastId: string, count: number) => db.$executeRaw`
      INSERT INTO emails (organization_id, message_id, from_email, to_email, subject, broadcast_id, sequence_position, contact_id, status)
      SELECT organization_id, '<' || id || '.' || ${broadcastId} || '@example.test>', 'news@example.test', email, 'News', ${broadcastId}::uuid, 0, id, 'sent'
      FROM (SELECT id, organization_id, email FROM contacts WHERE organization_id = ${org}::uuid ORDER BY id LIMIT ${count}) c`;
    // An earlier broadcast, analyzed: the statistics know its emails and no other broadcast's.
    await writeEmails(await broadcast("Last week"), AUDIENCE);
    await keepStatisticsCurrent(["contacts", "segment_contacts", "emails"], AUDIENCE, db);
    // This week's, a quarter written by earlier chunks, unseen by the statistics (as during a fan-out).
    const current = await broadcast("This week");
    await writeEmails(current, AUDIENCE / 4);
    const b: FanningBroadcast & { segment_id: string; has_steps: boolean } = {
      id: current,
      organization_id: org,
      status: "sending",
      scheduled_at: null,
      fanned_out_at: null,
      subject: "News",
      from_email: "news@example.test",
      from_name: null,
      reply_to: null,
      template_id: null,
      html_content: "<p>Hi</p>",
      text_content: null,
      segment_id: segment,
      topic_id: null,
      inbox_id: null,
      inbox_ids: [],
      sending_speed: null,
      tags: [],
      sequence_mode: "marketing",
      sending_window: null,
      has_steps: false,
      resend_of_id: null,
      resend_audience: null,
    };
    const members = await segmentMembersChunkSql(db, org, segment, { afterContactId: "00000000-0000-0000-0000-000000000000", limit: 5_000 });
    const chunk = fanOutChunkSql(b, members, AUDIENCE / 4);
    const [row] = await db.$queryRaw<{ "QUERY PLAN": [{ Plan: PlanNode }] }[]>(Prisma.sql`EXPLAIN (FORMAT JSON) ${chunk}`);
    const plan = nodes(row["QUERY PLAN"][0].Plan);
    // A node and what it joins, without the subqueries it runs per row.
    const joined = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).filter((n) => n["Parent Relationship"] !== "SubPlan").flatMap(joined)];
    const readsEmails = (node: PlanNode) => joined(node).some((n) => n["Relation Name"] === "emails" && n["Node Type"] !== "ModifyTable");
    // The measured bad plan: a nested-loop anti-join over every email of the broadcast written so far, for each candidate.
    expect(plan.filter((node) => node["Join Type"] === "Anti" && readsEmails(node)).map((node) => node["Node Type"])).toEqual([]);
    expect(plan.some((node) => node["Parent Relationship"] === "SubPlan" && readsEmails(node))).toBe(true);
  });
});

describe("the fan-out's plan on a list loaded just now for a new organization", () => {
  it("looks each member's contact up by its key, not every contact of the organization for each member", { timeout: 120_000 }, async () => {
    const { db } = database;
    // Other organizations' contacts, analyzed; then a new organization's list, which the statistics have not seen.
    const [{ id: org }] = await db.$queryRaw<{ id: string }[]>`INSERT INTO organizations (name) VALUES ('Just loaded') RETURNING id`;
    const [{ id: segment }] = await db.$queryRaw<{ id: string }[]>`INSERT INTO segments (organization_id, name) VALUES (${org}::uuid, 'List') RETURNING id`;
    await keepStatisticsCurrent(["contacts", "segment_contacts"], AUDIENCE, db);
    await db.$executeRaw`INSERT INTO contacts (organization_id, email) SELECT ${org}::uuid, 'l' || n || '@example.test' FROM generate_series(1, 5000) n`;
    await db.$executeRaw`INSERT INTO segment_contacts (segment_id, contact_id, organization_id) SELECT ${segment}::uuid, id, organization_id FROM contacts WHERE organization_id = ${org}::uuid`;
    const [{ id: broadcast }] = await db.$queryRaw<{ id: string }[]>`
      INSERT INTO broadcasts (organization_id, name, subject, from_email, segment_id, status, html_content)
      VALUES (${org}::uuid, 'Welcome', 'Welcome', 'hello@example.test', ${segment}::uuid, 'sending', '<p>Hi</p>') RETURNING id`;
    const b: FanningBroadcast & { segment_id: string; has_steps: boolean } = {
      id: broadcast,
      organization_id: org,
      status: "sending",
      scheduled_at: null,
      fanned_out_at: null,
      subject: "Welcome",
      from_email: "hello@example.test",
      from_name: null,
      reply_to: null,
      template_id: null,
      html_content: "<p>Hi</p>",
      text_content: null,
      segment_id: segment,
      topic_id: null,
      inbox_id: null,
      inbox_ids: [],
      sending_speed: null,
      tags: [],
      sequence_mode: "marketing",
      sending_window: null,
      has_steps: false,
      resend_of_id: null,
      resend_audience: null,
    };
    // The first chunk written, the second planned: the statistics know neither this segment nor these contacts.
    const firstMembers = await segmentMembersChunkSql(db, org, segment, { afterContactId: "00000000-0000-0000-0000-000000000000", limit: 200 });
    const [first] = await db.$queryRaw<{ last_contact_id: string }[]>(fanOutChunkSql(b, firstMembers, 0));
    const members = await segmentMembersChunkSql(db, org, segment, { afterContactId: first.last_contact_id, limit: 4_800 });
    const chunk = fanOutChunkSql(b, members, 200);
    const [row] = await db.$queryRaw<{ "QUERY PLAN": [{ Plan: PlanNode }] }[]>(Prisma.sql`EXPLAIN (FORMAT JSON) ${chunk}`);
    const contacts = nodes(row["QUERY PLAN"][0].Plan).filter((node) => node["Relation Name"] === "contacts");
    // The measured bad plan: every contact of the organization (its index on organization_id and
    // email) read for each member and joined by a filter, 4 800 × 4 800 rows (over a minute).
    expect(contacts.length).toBeGreaterThan(0);
    expect(contacts.map((node) => node["Index Name"])).toEqual(contacts.map(() => "contacts_pkey"));
  });
});

describe("the statistics of the sending queue", () => {
  it("are refreshed once a writer has queued more emails than they show, long before a tenth of the table", { timeout: 120_000 }, async () => {
    const { db } = database;
    const [{ id: org }] = await db.$queryRaw<{ id: string }[]>`INSERT INTO organizations (name) VALUES ('Queue statistics') RETURNING id`;
    const emails = (count: number, status: "sent" | "queued") => db.$executeRaw`
      INSERT INTO emails (organization_id, message_id, from_email, to_email, subject, status)
      SELECT ${org}::uuid, '<q' || n || '.' || ${status} || '@example.test>', 'news@example.test', 'q' || n || '@example.test', 'News', ${status}::"EmailStatus"
      FROM generate_series(1, ${count}::int) n`;
    // A table of sent mail, analyzed, then a broadcast's first queued emails: just under a tenth of it.
    await emails(AUDIENCE * 2, "sent");
    await db.$executeRawUnsafe("ANALYZE emails");
    const [{ rows }] = await db.$queryRaw<{ rows: number }[]>`SELECT reltuples::int AS rows FROM pg_class WHERE relname = 'emails'`;
    const queued = Math.floor(rows * 0.09);
    await emails(queued, "queued");

    expect(await keepStatisticsCurrent(["emails"], queued, db)).toEqual([]);
    expect(await keepQueueStatisticsCurrent(500, db)).toBe(false);
    expect(await keepQueueStatisticsCurrent(queued, db)).toBe(true);
    // Now they show them: nothing more to do for the same queue.
    expect(await keepQueueStatisticsCurrent(queued, db)).toBe(false);
  });
});
