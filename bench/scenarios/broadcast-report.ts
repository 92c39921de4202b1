import { REPORT_SQL, REPORT_WORK_MEM } from "@/lib/services/broadcast-report";
import { alternate, seconds } from "../bench";
import { atMost, median } from "../stats";
import type { Scenario } from "./scenario";

// A sent broadcast of `recipients` people: a follow-up to 40 % of them a day later; people open
// 40 % of the emails (1 to 3 times) and click 10 % (once or twice, on one of five links); proxies
// open another 15 % and scanners follow all five links of 2 %. Seeded with INSERT … SELECT.
const SEED = `
WITH gen AS MATERIALIZED (
  SELECT gen_random_uuid() AS id, pos, g, $3::timestamptz + pos * interval '1 day' + (g % 7200) * interval '1 second' AS sent_at,
         (g::bigint * 7919 % 1000) / 1000.0 AS r1, (g::bigint * 104729 % 1000) / 1000.0 AS r2
  FROM (SELECT 0 AS pos, g FROM generate_series(1, $4::int) g
        UNION ALL SELECT 1, g FROM generate_series(1, ($4::int * 2) / 5) g) s
),
emails_in AS (
  INSERT INTO emails (id, organization_id, message_id, from_email, to_email, subject, html_content, broadcast_id, sequence_position, status,
                      sent_at, delivered_at, bounced_at, complained_at, unsubscribed_at, opened_at, clicked_at, created_at)
  SELECT id, $1, '<' || id || '@bench.example>', 'news@bench.example', 'r' || g || '@example.com', 'News', repeat(md5(id::text), 40), $2, pos,
         (CASE WHEN r1 < 0.02 THEN 'bounced' ELSE 'sent' END)::"EmailStatus",
         CASE WHEN r1 >= 0.02 THEN sent_at END, CASE WHEN r1 >= 0.02 AND r1 < 0.9 THEN sent_at + interval '1 minute' END,
         CASE WHEN r1 < 0.02 THEN sent_at END, CASE WHEN r1 > 0.998 THEN sent_at + interval '1 day' END,
         CASE WHEN r1 > 0.99 THEN sent_at + interval '1 day' END,
         CASE WHEN r2 < 0.40 THEN sent_at + r2 * interval '100 hours' END, CASE WHEN r2 < 0.10 THEN sent_at + r2 * interval '200 hours' END,
         sent_at - interval '1 minute'
  FROM gen
),
opens AS (
  INSERT INTO events (organization_id, email_id, broadcast_id, name, source, machine, properties, occurred_at)
  SELECT $1, id, $2, 'email.opened', 'tracking', false, '{"machine":false}'::jsonb, sent_at + r2 * interval '100 hours' + n * interval '3 hours'
  FROM gen, generate_series(0, 2) n WHERE r2 < 0.40 AND n <= g % 3
  UNION ALL
  SELECT $1, id, $2, 'email.opened', 'tracking', true, '{"machine":true}'::jsonb, sent_at + interval '5 seconds' FROM gen WHERE r2 >= 0.40 AND r2 < 0.55
),
clicks AS (
  INSERT INTO events (organization_id, email_id, broadcast_id, name, source, machine, properties, occurred_at)
  SELECT $1, id, $2, 'email.clicked', 'tracking', false, jsonb_build_object('link', 'https://bench.example/link-' || g % 5, 'machine', false),
    sent_at + r2 * interval '200 hours' + n * interval '1 hour'
  FROM gen, generate_series(0, 1) n WHERE r2 < 0.10 AND n <= g % 2
  UNION ALL
  SELECT $1, id, $2, 'email.clicked', 'tracking', true, jsonb_build_object('link', 'https://bench.example/link-' || k, 'machine', true), sent_at + k * interval '200 milliseconds'
  FROM gen, generate_series(0, 4) k WHERE r2 >= 0.98
)
SELECT count(*) FROM gen`;

export const broadcastReportScenario: Scenario = {
  id: "broadcast-report",
  figures: [{ scenario: "GET /v1/broadcasts/{id}/report", unit: "ms p50", target: "ratio <= 1.5" }],
  async run(bench) {
    const recipients = bench.sizes.recipients;
    const org = await bench.createOrg("report");
    const started = Date.UTC(2026, 0, 5, 9, 15);
    const { rows } = await bench.pg.query<{ id: string }>(
      `INSERT INTO broadcasts (organization_id, name, subject, from_email, status, started_at) VALUES ($1, 'Report', 'News', 'news@bench.example', 'sent', $2) RETURNING id`,
      [org.organizationId, new Date(started)],
    );
    const broadcastId = rows[0].id;
    await bench.pg.query(
      `INSERT INTO sequence_steps (organization_id, broadcast_id, position, delay_minutes, text_content) VALUES ($1, $2, 1, 1440, 'Again')`,
      [org.organizationId, broadcastId],
    );
    bench.log(`seeding a report of ${recipients.toLocaleString("en-US")} recipients`);
    const seeding = performance.now();
    await bench.pg.query(SEED, [org.organizationId, broadcastId, new Date(started), recipients]);
    await bench.pg.query("VACUUM ANALYZE emails");
    await bench.pg.query("VACUUM ANALYZE events");
    bench.log(`  seeded in ${seconds(seeding).toFixed(1)} s`);

    const path = `/v1/broadcasts/${broadcastId}/report`;
    // The same statement through plain pg, in a transaction with the same work_mem: what PostgreSQL alone takes.
    const baselineQuery = async () => {
      const client = await bench.pg.connect();
      try {
        const t = performance.now();
        await client.query("BEGIN READ ONLY");
        await client.query(`SET LOCAL work_mem = '${REPORT_WORK_MEM}'`);
        await client.query(REPORT_SQL, [broadcastId, org.organizationId]);
        await client.query("COMMIT");
        return performance.now() - t;
      } finally {
        client.release();
      }
    };
    const product: number[] = [];
    const baseline: number[] = [];
    const samples = Math.max(5, Math.round(bench.sizes.latencySamples / 2));
    // Round -1 warms both up (prepared statements, caches) and is not counted.
    for (let round = -1; round < samples; round++) {
      await alternate(
        Math.max(round, 0),
        async () => {
          const { ms } = await bench.http.json<{ totals: { sent: number } }>("GET", path, org.token);
          if (round >= 0) product.push(ms);
        },
        async () => {
          const ms = await baselineQuery();
          if (round >= 0) baseline.push(ms);
        },
      );
    }
    const note = `${recipients.toLocaleString("en-US")} recipients and a follow-up to 40 % of them, with their opens and clicks; baseline: the report's SQL through pg; p50 ${median(product).toFixed(0)} vs ${median(baseline).toFixed(0)} ms`;
    return [atMost("GET /v1/broadcasts/{id}/report", "ms p50", product, baseline, 1.5, note)];
  },
};
