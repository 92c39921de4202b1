import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { pool } from "@/lib/db/pool";
import { createTestOrg } from "@/lib/testing/api";
import { threadPageQuery } from "./thread-list";

type PlanNode = { "Node Type": string; "Relation Name"?: string; "Subplan Name"?: string; Plans?: PlanNode[] };
const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

/** Answered threads with a draft on each, INSERT … SELECT: a tenant with a busy team. */
async function seed(organizationId: string, threads: number) {
  await pool.query(
    `WITH t AS (
       INSERT INTO threads (organization_id, subject, category, last_message_at)
       SELECT $1::uuid, 'Thread ' || g, 'needs_reply', now() - g * interval '1 minute' FROM generate_series(1, $2::int) g RETURNING id)
     INSERT INTO thread_drafts (organization_id, thread_id, text_content) SELECT $1::uuid, id, 'Hi' FROM t`,
    [organizationId, threads],
  );
}

describe("the unified inbox's statement", () => {
  it("reads the page's threads from the index and probes only their drafts and replies, however many drafts other tenants keep", async () => {
    const busy = await createTestOrg();
    const quiet = await createTestOrg();
    await seed(busy.organizationId, 20_000);
    await seed(quiet.organizationId, 30);
    await pool.query("ANALYZE threads");
    await pool.query("ANALYZE thread_drafts");
    for (const org of [busy, quiet]) {
      for (const query of [{}, { category: "needs_reply" as const }]) {
        const statement = threadPageQuery(org.organizationId, query, 21);
        const { rows } = await pool.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) ${statement.text}`, statement.values);
        const plan = nodes(rows[0]["QUERY PLAN"][0].Plan);
        const label = `${JSON.stringify(query)} for ${org === busy ? "the busy" : "the quiet"} tenant`;
        // A sequential scan (or a hash of a subplan) of drafts or emails reads every tenant's rows for a page of 20.
        expect(
          plan.filter((n) => n["Node Type"] === "Seq Scan").map((n) => n["Relation Name"]),
          label,
        ).toEqual([]);
        expect(plan.filter((n) => n["Subplan Name"]?.includes("hashed")).length, label).toBe(0);
        expect(
          plan.some((n) => n["Relation Name"] === "thread_drafts" && /Index/.test(n["Node Type"])),
          label,
        ).toBe(true);
      }
    }
    const page = await pool.query(threadPageQuery(quiet.organizationId, {}, 21));
    expect(page.rows.map((r) => r.has_draft)).toEqual(Array(21).fill(true));
    expect(await db.thread.count({ where: { organization_id: quiet.organizationId } })).toBe(30);
  });
});
