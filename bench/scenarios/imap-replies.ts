import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ImapFlow } from "imapflow";
import { sealSecret } from "@/lib/crypto/secret-box";
import { dovecotAvailable, startDovecot, type Dovecot } from "@/lib/testing/dovecot";
import { alternate, seconds, type Bench } from "../bench";
import { SendingWorker } from "../processes";
import { atMost, median, unavailable, type Result } from "../stats";
import { WORKER_ENTRY } from "./broadcast-send";
import type { Scenario } from "./scenario";

const FIGURE = { scenario: "IMAP replies: polled and recorded", unit: "s", target: "ratio <= 1.5" };
const INBOXES = 50;
const PASSWORD = "bench-imap";
const BODY = `Thanks for reaching out. ${"Could you tell me more about the pricing for a team of twenty? ".repeat(8)}\n\nLee`;

// One sales team: 50 inboxes of one organization, each with `perInbox` answers to emails of a
// broadcast it sent (a contact, a thread and a sent email each, as a fan-out leaves them).
const SEED = `
WITH gen AS MATERIALIZED (
  SELECT g, (g - 1) / $4::int AS box, uuid_v7() AS contact_id, uuid_v7() AS thread_id, uuid_v7() AS email_id
  FROM generate_series(1, $4::int * array_length($3::uuid[], 1)) g
),
contacts_in AS (INSERT INTO contacts (id, organization_id, email) SELECT contact_id, $1, 'lead' || g || '@example.com' FROM gen),
threads_in AS (
  INSERT INTO threads (id, organization_id, subject, contact_id, inbox_id, broadcast_id)
  SELECT thread_id, $1, 'Idea', contact_id, ($3::uuid[])[box + 1], $2 FROM gen
),
emails_in AS (
  INSERT INTO emails (id, organization_id, message_id, from_email, to_email, subject, broadcast_id, sequence_position, contact_id, inbox_id, thread_id,
                      status, sent_at)
  SELECT email_id, $1, '<' || email_id || '@bench.example>', 'rep' || box || '@bench.example', 'lead' || g || '@example.com', 'Idea', $2, 0,
         contact_id, ($3::uuid[])[box + 1], thread_id, 'sent', now() - interval '1 day'
  FROM gen
)
SELECT g, box, email_id::text FROM gen ORDER BY g`;

/** The answers, written straight into each user's maildir (dovecot gives them UIDs on first access). */
function writeReplies(dovecot: Dovecot, rows: { g: number; box: number; email_id: string }[]) {
  for (let box = 0; box < INBOXES; box++) {
    for (const sub of ["", "/cur", "/new", "/tmp"]) {
      const dir = path.join(dovecot.home, `rep${box}@bench.example`, `Maildir${sub}`);
      mkdirSync(dir, { recursive: true });
      // dovecot runs as nobody and writes its index files beside the mail.
      chmodSync(dir, 0o777);
    }
    chmodSync(path.join(dovecot.home, `rep${box}@bench.example`), 0o777);
  }
  for (const row of rows) {
    const sent = `<${row.email_id}@bench.example>`;
    const message = [
      `From: Lead ${row.g} <lead${row.g}@example.com>`,
      `To: rep${row.box}@bench.example`,
      "Subject: Re: Idea",
      `Date: ${new Date().toUTCString()}`,
      `Message-ID: <reply-${row.g}@example.com>`,
      `In-Reply-To: ${sent}`,
      `References: ${sent}`,
      "MIME-Version: 1.0",
      "Content-Type: text/plain; charset=utf-8",
      "",
      BODY,
      "",
    ].join("\r\n");
    const file = path.join(dovecot.home, `rep${row.box}@bench.example`, "Maildir", "new", `1764000000.M${row.g}P1.bench,S=${Buffer.byteLength(message)}`);
    writeFileSync(file, message);
    chmodSync(file, 0o666);
  }
}

/** Every message of every inbox fetched whole over IMAP, inbox after inbox, on one connection at a time. */
async function bareFetch(dovecot: Dovecot): Promise<number> {
  let messages = 0;
  for (let box = 0; box < INBOXES; box++) {
    const client = new ImapFlow({
      host: dovecot.host,
      port: dovecot.port,
      secure: false,
      auth: { user: `rep${box}@bench.example`, pass: PASSWORD },
      logger: false,
    });
    await client.connect();
    const lock = await client.getMailboxLock("INBOX", { readOnly: true });
    try {
      for await (const message of client.fetch("1:*", { uid: true, source: true })) if (message.source) messages++;
    } finally {
      lock.release();
    }
    await client.logout();
  }
  return messages;
}

async function inboundCount(bench: Bench, organizationId: string): Promise<number> {
  const { rows } = await bench.pg.query<{ n: number }>("SELECT count(*)::int AS n FROM emails WHERE organization_id = $1 AND direction = 'inbound'", [
    organizationId,
  ]);
  return rows[0].n;
}

/**
 * What a run recorded is taken back, so the next run records the same messages again: once no poll
 * is under way. The inboxes stop being due under the claim's own lock (a claim under way would
 * otherwise set them due again), and their polls are waited for: one that re-read what is being
 * deleted would deadlock with these statements.
 */
async function forget(bench: Bench, organizationId: string) {
  if (!/^[0-9a-f-]{36}$/.test(organizationId)) throw new Error("not an organization id");
  await bench.pg.query(
    `BEGIN; SELECT pg_advisory_xact_lock(hashtext('replies:claim-inboxes'));
     UPDATE inboxes SET imap_last_polled_at = now() + interval '1 day' WHERE organization_id = '${organizationId}'; COMMIT`,
  );
  for (;;) {
    const { rows } = await bench.pg.query("SELECT 1 FROM inboxes WHERE organization_id = $1 AND imap_poll_until > now() LIMIT 1", [organizationId]);
    if (rows.length === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await bench.pg.query("UPDATE inboxes SET imap_last_uid = NULL WHERE organization_id = $1", [organizationId]);
  await bench.pg.query("DELETE FROM emails WHERE organization_id = $1 AND direction = 'inbound'", [organizationId]);
  await bench.pg.query("DELETE FROM event_outbox WHERE organization_id = $1", [organizationId]);
  await bench.pg.query("DELETE FROM events WHERE organization_id = $1 AND name = 'email.replied'", [organizationId]);
  await bench.pg.query("UPDATE emails SET replied_at = NULL WHERE organization_id = $1 AND replied_at IS NOT NULL", [organizationId]);
  await bench.pg.query("UPDATE threads SET category = NULL WHERE organization_id = $1", [organizationId]);
  await bench.pg.query("VACUUM ANALYZE emails");
}

/**
 * The worker's poller, from its first claim of the due inboxes until every reply is recorded. An
 * idle lane looks for due inboxes every 5 s (worker/tasks.ts): that wait, 0–5 s, is when a poll
 * starts, not what polling costs, and is logged apart.
 */
async function productRun(bench: Bench, organizationId: string, perInbox: number, timeoutMs: number): Promise<number> {
  const expected = perInbox * INBOXES;
  const due = performance.now();
  await bench.pg.query("UPDATE inboxes SET imap_last_polled_at = NULL WHERE organization_id = $1", [organizationId]);
  for (;;) {
    const { rows } = await bench.pg.query("SELECT 1 FROM inboxes WHERE organization_id = $1 AND imap_last_polled_at IS NOT NULL LIMIT 1", [organizationId]);
    if (rows.length > 0) break;
    if (performance.now() - due > 60_000) throw new Error("no inbox was claimed within 60 s");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const started = performance.now();
  bench.log(`  the first claim came ${seconds(due).toFixed(1)} s after the inboxes were due`);
  // Watched by the inboxes' marks, which move in the transaction that records their messages: counting
  // the inbound emails every 25 ms took PostgreSQL 25 ms a count at full size, as much of its time as
  // the recording itself. The count is checked once at the end.
  for (;;) {
    const { rows } = await bench.pg.query<{ done: number }>("SELECT count(*)::int AS done FROM inboxes WHERE organization_id = $1 AND imap_last_uid >= $2", [
      organizationId,
      perInbox,
    ]);
    if (rows[0].done >= INBOXES) break;
    if (performance.now() - started > timeoutMs) throw new Error(`${rows[0].done} of ${INBOXES} inboxes recorded after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const elapsed = seconds(started);
  const recorded = await inboundCount(bench, organizationId);
  if (recorded !== expected) throw new Error(`${recorded} of ${expected} replies recorded once every inbox's mark was at its last message`);
  return elapsed;
}

export const imapRepliesScenario: Scenario = {
  id: "imap-replies",
  figures: [FIGURE],
  async run(bench) {
    if (!dovecotAvailable()) return [unavailable(FIGURE.scenario, FIGURE.unit, FIGURE.target, "not available: dovecot is not installed")];
    const perInbox = bench.quick ? 50 : 1000;
    const expected = perInbox * INBOXES;
    const users = Object.fromEntries(Array.from({ length: INBOXES }, (_, box) => [`rep${box}@bench.example`, PASSWORD]));
    const dovecot = await startDovecot(users);
    const worker = new SendingWorker(path.join(bench.dataDir, "imap-worker.log"), {
      ...bench.serverEnv,
      ALLOWED_PRIVATE_HOSTS: `127.0.0.1:${dovecot.port}`,
      // An inbox of 1 000 new messages takes two polls (500 a poll): the second comes a second later, not a minute.
      IMAP_POLL_INTERVAL_SECONDS: "1",
    });
    try {
      const org = await bench.createOrg("imap replies");
      const { rows: broadcasts } = await bench.pg.query<{ id: string }>(
        `INSERT INTO broadcasts (organization_id, name, subject, from_email, status) VALUES ($1, 'Outbound', 'Idea', 'rep0@bench.example', 'sent') RETURNING id`,
        [org.organizationId],
      );
      const inboxIds: string[] = [];
      for (let box = 0; box < INBOXES; box++) {
        const { rows } = await bench.pg.query<{ id: string }>(
          `INSERT INTO inboxes (organization_id, name, from_email, smtp_host, smtp_port, imap_host, imap_port, imap_secure, imap_username,
             imap_password_encrypted, imap_last_polled_at, sender_confirmed_at)
           VALUES ($1, $2, $3, '127.0.0.1', 2525, '127.0.0.1', $4, false, $3, $5, now() + interval '1 day', now()) RETURNING id`,
          [org.organizationId, `Rep ${box}`, `rep${box}@bench.example`, dovecot.port, sealSecret(PASSWORD)],
        );
        inboxIds.push(rows[0].id);
      }
      bench.log(`seeding ${expected.toLocaleString("en-US")} sent emails and their replies in ${INBOXES} dovecot inboxes`);
      const seeding = performance.now();
      const { rows } = await bench.pg.query<{ g: number; box: number; email_id: string }>(SEED, [org.organizationId, broadcasts[0].id, inboxIds, perInbox]);
      writeReplies(dovecot, rows);
      for (const table of ["contacts", "threads", "emails"]) await bench.pg.query(`VACUUM ANALYZE ${table}`);
      // dovecot indexes each maildir on first access: done once here, for neither side to pay.
      if ((await bareFetch(dovecot)) !== expected) throw new Error("dovecot does not hold every seeded message");
      bench.log(`  seeded in ${seconds(seeding).toFixed(1)} s`);

      worker.start(WORKER_ENTRY);
      const product: number[] = [];
      const baseline: number[] = [];
      const repeats = 2;
      for (let round = 0; round < repeats; round++) {
        await alternate(
          round,
          async () => {
            const s = await productRun(bench, org.organizationId, perInbox, bench.quick ? 900_000 : 10_800_000);
            product.push(s);
            bench.log(`  product: ${expected.toLocaleString("en-US")} replies recorded in ${s.toFixed(1)} s`);
            await forget(bench, org.organizationId);
          },
          async () => {
            const started = performance.now();
            const fetched = await bareFetch(dovecot);
            if (fetched !== expected) throw new Error(`the bare fetch read ${fetched} messages`);
            baseline.push(seconds(started));
            bench.log(`  baseline: ${fetched.toLocaleString("en-US")} messages fetched in ${seconds(started).toFixed(1)} s`);
          },
        );
      }
      const note =
        `${INBOXES} inboxes of one organization with ${perInbox.toLocaleString("en-US")} replies each (dovecot, loopback), from the worker's first claim ` +
        `until it has recorded every reply (up to IMAP_ORGANIZATION_POLLS = 2 of them polled at once); baseline: imapflow fetching every message whole, ` +
        `inbox after inbox on one connection; ${(expected / median(product)).toFixed(0)} vs ${(expected / median(baseline)).toFixed(0)} messages/s`;
      return [atMost(FIGURE.scenario, FIGURE.unit, product, baseline, 1.5, note)] satisfies Result[];
    } finally {
      await worker.stop();
      await dovecot.stop();
    }
  },
};
