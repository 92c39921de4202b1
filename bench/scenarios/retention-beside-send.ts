import type { Bench } from "../bench";
import { alternate } from "../bench";
import { atLeast } from "../stats";
import { audience, productSend } from "./broadcast-send";
import { idAt } from "./large-tables";
import { ownDatabase } from "./own-database";
import type { Scenario } from "./scenario";

const FIGURE = { scenario: "broadcast: send rate beside a retention pass over 1M old emails", unit: "emails/s", target: "ratio >= 0.9" };
/** Recipients of each send: 20 000 keep six sends within the hour on a loaded 2-core machine. */
const RECIPIENTS = 20_000;
const RETENTION = { EMAIL_BODY_RETENTION_DAYS: "90", EVENT_RETENTION_DAYS: "90", TRACKING_RETENTION_DAYS: "90" };
const HTML = `<html><body><h1>News of the week</h1><p>${"Here is what happened this week. ".repeat(24)}</p><p><a href="https://bench.example/t/c/TOKEN">Read more</a> <a href="https://bench.example/shop">Shop</a></p></body></html>`;

/**
 * A year-old broadcast of `count` emails, sent 400 days ago with their bodies, an `email.sent` and an
 * `email.delivered` event each, and people's opens of 30 % and clicks of 5 %: what retention clears.
 */
async function seedOldMail(bench: Bench, count: number) {
  const org = await bench.createOrg("old mail");
  const { rows } = await bench.pg.query<{ id: string }>(
    `INSERT INTO broadcasts (organization_id, name, subject, from_email, status, started_at, completed_at, created_at)
     VALUES ($1, 'Last year', 'News', 'news@bench.example', 'sent', now() - interval '400 days', now() - interval '400 days', now() - interval '400 days') RETURNING id`,
    [org.organizationId],
  );
  const broadcastId = rows[0].id;
  await bench.pg.query(
    `WITH gen AS MATERIALIZED (
       SELECT i, ${idAt("t", "i::text")} AS id, t FROM generate_series(1, $3::int) i,
         LATERAL (SELECT now() - interval '400 days' + i * interval '1 millisecond' AS t) at
     ),
     mail AS (
       INSERT INTO emails (id, organization_id, message_id, from_email, to_email, subject, html_content, text_content, broadcast_id, status,
                           sent_at, delivered_at, opens, created_at, updated_at)
       SELECT id, $1, '<' || id || '@bench.example>', 'news@bench.example', 'old' || i || '@example.com', 'News', replace($4, 'TOKEN', md5(i::text)),
         'Here is what happened this week.', $2, 'delivered', t, t, CASE WHEN i % 10 < 3 THEN jsonb_build_array(jsonb_build_object('at', t, 'ip', '192.0.2.1', 'user_agent', 'Mozilla/5.0 (X11)')) ELSE '[]' END, t, t
       FROM gen
     )
     INSERT INTO events (id, organization_id, name, source, email_id, broadcast_id, properties, occurred_at, created_at)
     SELECT ${idAt("t + k * interval '1 second'", "i || '.' || k")}, $1, name, src, id, $2, props, t + k * interval '1 second', t + k * interval '1 second'
     FROM gen, LATERAL (VALUES (0, 'email.sent', 'sending', '{}'::jsonb), (1, 'email.delivered', 'feedback', '{}'::jsonb),
                               (2, 'email.opened', 'tracking', '{"machine": false}'::jsonb),
                               (3, 'email.clicked', 'tracking', '{"link": "https://bench.example/shop", "machine": false}'::jsonb)) e(k, name, src, props)
     WHERE k < 2 OR (k = 2 AND i % 10 < 3) OR (k = 3 AND i % 20 = 0)`,
    [org.organizationId, broadcastId, count, HTML],
  );
  await bench.pg.query("VACUUM ANALYZE emails, events");
}

const cleared = async (bench: Bench) => Number((await bench.pg.query(`SELECT count(*) FROM emails WHERE body_links IS NOT NULL`)).rows[0].count);

export const retentionBesideSendScenario: Scenario = {
  id: "retention-beside-send",
  figures: [FIGURE],
  async run(bench) {
    const old = bench.quick ? 50_000 : 1_000_000;
    const { sendRepeats } = bench.sizes;
    const recipients = bench.quick ? 5_000 : RECIPIENTS;
    const own = await ownDatabase(bench, "retention", 2);
    try {
      const { org, all, warmup } = await audience(own.bench, recipients);
      bench.log(`  seeding ${old.toLocaleString("en-US")} emails of 400 days ago, with their events`);
      await seedOldMail(own.bench, old);
      const rate = { with: [] as number[], without: [] as number[] };
      const progress: string[] = [];
      for (let repeat = 0; repeat < sendRepeats; repeat++) {
        const send = (retention: boolean) => async () => {
          const worker = own.startWorker(retention ? RETENTION : {});
          try {
            await productSend(own.bench, org, warmup, 10, "warm-up", 90_000);
            const before = await cleared(own.bench);
            const r = await productSend(own.bench, org, all, recipients, `run ${repeat}`, 120_000);
            (retention ? rate.with : rate.without).push(r.rate);
            const during = (await cleared(own.bench)) - before;
            if (retention) progress.push(during.toLocaleString("en-US"));
            bench.log(`  ${retention ? `with retention (${during} bodies cleared meanwhile)` : "without"}: ${Math.round(r.rate)} emails/s`);
          } finally {
            await worker.stop();
          }
        };
        await alternate(repeat, send(true), send(false));
      }
      const note =
        `${recipients.toLocaleString("en-US")} recipients at instant speed through the relay, beside ${old.toLocaleString("en-US")} emails of 400 days ago ` +
        `with bodies, an email.sent and email.delivered event each, opens of 30 % and clicks of 5 %, retention at 90 days for all three; ` +
        `bodies cleared during each measured send: ${progress.join(", ")}; baseline: the same send by a worker without retention, alternating`;
      return [atLeast(FIGURE.scenario, FIGURE.unit, rate.with, rate.without, 0.9, note)];
    } finally {
      await own.close();
    }
  },
};
