import { threadPageQuery } from "@/lib/services/thread-list";
import type { ListThreadsQuery } from "@/lib/schemas/threads";
import { alternate, seconds, type Bench } from "../bench";
import { BARE, BARE_STATUS } from "../http";
import { atMost, median, type Result } from "../stats";
import type { Scenario } from "./scenario";

const PAGE = 20;
const CATEGORIES = ["needs_reply", "interested", "not_interested", "meeting", "out_of_office", "done"];

// `threads` answered conversations of one organization over three inboxes and two broadcasts: each a
// sent email and the lead's reply a minute to a few days later, a category from the rules, a shared
// draft on one in ten; beside them as many threads that were sent and never answered (a broadcast's
// other recipients), which the unified inbox must not read. Seeded with INSERT … SELECT.
const SEED = `
WITH inboxes AS (
  INSERT INTO inboxes (organization_id, name, from_email, smtp_host, smtp_port)
  SELECT $1, 'Rep ' || n, 'rep' || n || '@bench.example', '127.0.0.1', 2525 FROM generate_series(0, 2) n
  RETURNING id, from_email
),
ib AS (SELECT id, from_email, row_number() OVER (ORDER BY id) - 1 AS n FROM inboxes),
gen AS MATERIALIZED (
  SELECT uuid_v7() AS thread_id, uuid_v7() AS sent_id, uuid_v7() AS reply_id, g,
         $3::timestamptz - (g * interval '37 seconds') AS replied_at, g <= $2::int AS answered
  FROM generate_series(1, $2::int * 2) g
),
threads_in AS (
  INSERT INTO threads (id, organization_id, subject, inbox_id, broadcast_id, category, last_message_at, created_at)
  SELECT gen.thread_id, $1, 'Idea for {{first_name}}', ib.id, CASE WHEN g % 4 = 0 THEN NULL ELSE $4::uuid END,
         CASE WHEN answered THEN ($5::text[])[1 + g % 6]::"ThreadCategory" END,
         CASE WHEN answered THEN replied_at ELSE replied_at - interval '3 days' END, replied_at - interval '3 days'
  FROM gen JOIN ib ON ib.n = g % 3
),
sent AS (
  INSERT INTO emails (id, organization_id, message_id, from_email, to_email, subject, text_content, thread_id, inbox_id, status, sent_at, created_at)
  SELECT sent_id, $1, '<' || sent_id || '@bench.example>', ib.from_email, 'lead' || g || '@example.com', 'Idea for you',
         'Hi, would a shared inbox help your team?', thread_id, ib.id, 'sent', replied_at - interval '3 days', replied_at - interval '3 days'
  FROM gen JOIN ib ON ib.n = g % 3
),
replies AS (
  INSERT INTO emails (id, organization_id, message_id, direction, from_email, from_name, to_email, subject, text_content, thread_id, inbox_id,
                      parent_email_id, in_reply_to, status, created_at)
  SELECT reply_id, $1, '<' || reply_id || '@example.com>', 'inbound', 'lead' || g || '@example.com', 'Lead ' || g, ib.from_email,
         'Re: Idea for you', 'Thanks for reaching out. ' || repeat('Could you tell me more about the pricing for our team? ', 8),
         thread_id, ib.id, sent_id, '<' || sent_id || '@bench.example>', 'received', replied_at
  FROM gen JOIN ib ON ib.n = g % 3 WHERE answered
),
drafts AS (
  INSERT INTO thread_drafts (organization_id, thread_id, text_content)
  SELECT $1, thread_id, 'Hi, happy to.' FROM gen WHERE answered AND g % 10 = 0
)
SELECT (SELECT id FROM ib WHERE n = 1) AS inbox_id`;

type Kind = { name: string; query: ListThreadsQuery };

/** The framework's own time for a request that does nothing, one at a time as the pages are asked (see list-contacts). */
async function frameworkFloorMs(bench: Bench): Promise<number> {
  const samples: number[] = [];
  for (let i = -5; i < 31; i++) {
    const reply = await bench.http.request("GET", BARE);
    if (reply.status !== BARE_STATUS) throw new Error(`GET ${BARE} answered ${reply.status}`);
    if (i >= 0) samples.push(reply.ms);
  }
  return median(samples);
}

export const threadInboxScenario: Scenario = {
  id: "thread-inbox",
  figures: [
    { scenario: "unified inbox: first page", unit: "ms p50", target: "ratio <= 1.5" },
    { scenario: "unified inbox: category filter", unit: "ms p50", target: "ratio <= 1.5" },
    { scenario: "unified inbox: inbox filter", unit: "ms p50", target: "ratio <= 1.5" },
  ],
  async run(bench) {
    const threads = bench.sizes.threads;
    const org = await bench.createOrg("unified inbox");
    const { rows: broadcasts } = await bench.pg.query<{ id: string }>(
      `INSERT INTO broadcasts (organization_id, name, subject, from_email, status) VALUES ($1, 'Outbound', 'Idea', 'rep0@bench.example', 'sent') RETURNING id`,
      [org.organizationId],
    );
    bench.log(`seeding ${threads.toLocaleString("en-US")} answered threads and as many unanswered`);
    const seeding = performance.now();
    const { rows } = await bench.pg.query<{ inbox_id: string }>(SEED, [org.organizationId, threads, new Date(), broadcasts[0].id, CATEGORIES]);
    for (const table of ["threads", "emails", "thread_drafts"]) await bench.pg.query(`VACUUM ANALYZE ${table}`);
    bench.log(`  seeded in ${seconds(seeding).toFixed(1)} s`);

    const kinds: Kind[] = [
      { name: "first page", query: {} },
      { name: "category filter", query: { category: "interested" } },
      { name: "inbox filter", query: { inbox_id: rows[0].inbox_id } },
    ];
    const floor = await frameworkFloorMs(bench);
    const results: Result[] = [];
    for (const kind of kinds) {
      const path = `/v1/threads?${new URLSearchParams({ limit: String(PAGE), ...kind.query })}`;
      // The statement lib/services/thread-list.ts runs for the page, with the same parameters, through plain pg.
      const statement = threadPageQuery(org.organizationId, kind.query, PAGE + 1);
      const product: number[] = [];
      const baseline: number[] = [];
      for (let sample = -3; sample < bench.sizes.latencySamples * 2; sample++) {
        await alternate(
          sample,
          async () => {
            const { data, ms } = await bench.http.json<{ data: unknown[] }>("GET", path, org.token);
            if (data.data.length !== PAGE) throw new Error(`${path} answered ${data.data.length} threads`);
            if (sample >= 0) product.push(ms);
          },
          async () => {
            const started = performance.now();
            const answer = await bench.pg.query(statement);
            const ms = performance.now() - started;
            if (answer.rowCount !== PAGE + 1) throw new Error(`the baseline of ${path} found ${answer.rowCount} rows`);
            if (sample >= 0) baseline.push(ms);
          },
        );
      }
      const sql = median(baseline);
      results.push(
        atMost(
          `unified inbox: ${kind.name}`,
          "ms p50",
          product,
          baseline,
          1.5,
          `GET ${path} over ${threads.toLocaleString("en-US")} answered threads (and as many unanswered); baseline: the same statement through pg; ` +
            `the framework's answer to ${BARE} alone takes ${floor.toFixed(1)} ms p50: the SQL and it would be ${((sql + floor) / sql).toFixed(2)} of the baseline`,
        ),
      );
    }
    return results;
  },
};
