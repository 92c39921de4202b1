import type pg from "pg";

// Seeding for the scenarios of tables that grow (issue 29): emails written set-based, with
// time-ordered ids made at their own time (as uuid_v7() would have made them then), so that old rows
// sort where retention looks for them.

/** SQL of a uuid_v7 made at `at` (a timestamptz expression), its random bits drawn from `salt` (a text expression). */
export const idAt = (at: string, salt: string) =>
  `(lpad(to_hex((extract(epoch FROM ${at}) * 1000)::bigint), 12, '0') || '7' || substr(md5(${salt}), 1, 3) || '8' || substr(md5(${salt}), 4, 15))::uuid`;

/**
 * `count` emails of a broadcast (`status` queued: still to send; sent: out an hour ago), as a
 * fan-out writes them: no body (the engine renders the broadcast's), one recipient each.
 */
export async function seedBroadcastEmails(pool: pg.Pool, organizationId: string, broadcastId: string, count: number, status: "queued" | "sent", tag: string) {
  await pool.query(
    `INSERT INTO emails (id, organization_id, message_id, from_email, to_email, subject, broadcast_id, status, sent_at, created_at, updated_at)
     SELECT ${idAt("now()", `$5 || i`)}, $1, '<' || $5 || i || '@bench.example>', 'news@bench.example', $5 || i || '@example.com', 'News', $2,
       $3::"EmailStatus", CASE WHEN $3 = 'sent' THEN now() - interval '1 hour' END, now(), now()
     FROM generate_series(1, $4::int) i`,
    [organizationId, broadcastId, status, count, tag],
  );
}

/** A broadcast of the organization's in `status`, sending instantly from bench.example through the relay. */
export async function seedBroadcast(pool: pg.Pool, organizationId: string, name: string, status: string): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO broadcasts (organization_id, name, subject, from_email, html_content, text_content, sending_speed, status, started_at, fanned_out_at)
     VALUES ($1, $2, 'News', 'news@bench.example', '<p>Hello, here is the news.</p><p><a href="https://bench.example/read">Read more</a></p>',
       'Hello, here is the news.', 'instant', $3::"BroadcastStatus", now(), now()) RETURNING id`,
    [organizationId, name, status],
  );
  return rows[0].id;
}

/**
 * `count` emails of another organization sent over the year before now, a million per statement, as
 * a year of sending leaves them with EMAIL_BODY_RETENTION_DAYS on (no body, its links kept). The
 * table's secondary indexes are dropped first and built again after, as a restore does: building
 * an index once is many times faster than ten million insertions into a dozen indexes.
 */
export async function seedHistory(pool: pg.Pool, organizationId: string, count: number, log: (message: string) => void) {
  const client = await pool.connect();
  try {
    await client.query("SET maintenance_work_mem = '256MB'");
    const { rows: indexes } = await client.query<{ name: string; def: string }>(
      `SELECT i.indexname AS name, i.indexdef AS def FROM pg_indexes i
       WHERE i.tablename = 'emails' AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = (quote_ident(i.indexname))::regclass)`,
    );
    for (const index of indexes) await client.query(`DROP INDEX ${index.name}`);
    const step = 1_000_000;
    for (let from = 0; from < count; from += step) {
      const started = performance.now();
      await client.query(
        `INSERT INTO emails (id, organization_id, message_id, from_email, to_email, subject, status, body_links, sent_at, delivered_at, created_at, updated_at)
         SELECT ${idAt("t", "i::text")}, $1, '<' || i || '.history@bench.example>', 'news@bench.example', 'reader' || (i % 200000) || '@example.com',
           'Newsletter #' || (i % 52), 'delivered', '<a href="https://bench.example/read"></a>', t, t, t, t
         FROM generate_series($2::bigint, $3::bigint - 1) AS i, LATERAL (SELECT now() - interval '365 days' + i * (interval '365 days' / $4::bigint) AS t) AS at`,
        [organizationId, from, Math.min(count, from + step), count],
      );
      log(`  ${Math.min(count, from + step).toLocaleString("en-US")} emails of history (${((performance.now() - started) / 1000).toFixed(0)} s)`);
    }
    for (const index of indexes) {
      const started = performance.now();
      await client.query(index.def);
      log(`  index ${index.name} built again (${((performance.now() - started) / 1000).toFixed(0)} s)`);
    }
    await client.query("VACUUM ANALYZE emails");
  } finally {
    client.release();
  }
}
