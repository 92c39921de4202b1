import type { Inbox } from "@/lib/generated/prisma/client";
import { Prisma } from "@/lib/db";
import type { SendingSpeed } from "@/lib/generated/prisma/enums";
import { inboxProvenSql } from "@/lib/senders/proof";
import type pg from "pg";
import { organizationTurn, type OrganizationQueue } from "@/lib/db/organizations-in-turn";
import { claimPool } from "./engine-db";
import { executeNamed, inClaimTransaction, queryNamed } from "./prepared";
import { deal } from "@/lib/domain/fair-share";
import { hasDueSql, instantEmailsSql, nextPacedEmailSql } from "./inbox-queue";
import { relayEmailsSql, relayHasDueSql } from "./relay-queue";
import { dailyCap, pacingGapMs, resolveSpeed, type InboxPacing } from "@/lib/domain/sending-speeds";

/** Where an inbox's emails go: its SMTP server (host and port), which several inboxes may share. */
export type InboxServer = Pick<Inbox, "id" | "organization_id" | "smtp_host" | "smtp_port">;

/**
 * How many more emails this worker wants for each destination right now. A slow or failing server
 * fills its own small queue and then gets none, so it never takes the claims of others.
 */
export type ClaimRoom = {
  inbox: (inbox: InboxServer) => number;
  relay: () => number;
  /** The organizations in the order they should be served (least recently served first). */
  order: (organizationIds: string[]) => string[];
  /** Inboxes with no room at all: not even locked. */
  full: () => string[];
};

export type ClaimOptions = {
  /** Most emails one claim takes. */
  batchSize: number;
  /** How long the claimed emails belong to this worker before another may take them over. */
  leaseMs: number;
  /** Multiplies pacing gaps: 1 in production; tests shrink the clock with it. */
  paceScale: number;
  /** Only these organizations' emails (tests share one database). */
  organizationIds?: string[];
  /** Per-destination limits and the fair order; without it every destination has the whole batch. */
  room?: ClaimRoom;
  /** When "due" is judged (tests control it); the database's now() when not given. */
  now?: Date;
};

export type Claimed = { id: string; organization_id: string; inbox_id: string | null };

const unlimited: ClaimRoom = { inbox: () => Infinity, relay: () => Infinity, order: (ids) => ids, full: () => [] };

// Due emails (inbox-queue.ts) are taken in index order, not sorted: sorting every queued row for
// each batch would make a large broadcast quadratic.
const nowOf = (options: Pick<ClaimOptions, "now">) => (options.now ? Prisma.sql`${options.now}::timestamptz` : Prisma.sql`now()`);

const scoped = (organizationIds: string[] | undefined) =>
  organizationIds ? Prisma.sql`AND i.organization_id = ANY(${organizationIds}::uuid[])` : Prisma.empty;

/**
 * Whether an inbox (`i`) has due instant emails, and a due paced one with its pacing gap passed.
 * OFFSET 0: evaluated once an inbox, not again for each place the two answers are read.
 */
const inboxDueSql = (options: Pick<ClaimOptions, "now">) => {
  const now = nowOf(options);
  return Prisma.sql`SELECT ${hasDueSql(Prisma.sql`i.id`, "instant", now)} AS instant_due,
    (i.next_send_at IS NULL OR i.next_send_at <= now()) AND ${hasDueSql(Prisma.sql`i.id`, "paced", now)} AS paced_due
    OFFSET 0`;
};

/**
 * Inboxes a claim may take emails from (`i`, beside `due`: inboxDueSql): sending, proven, not
 * paused, not full in this worker, with something to claim now.
 */
const readyInboxSql = (options: ClaimOptions, room: ClaimRoom) => Prisma.sql`NOT i.paused AND i.status = 'active' AND ${inboxProvenSql("i")}
  ${scoped(options.organizationIds)} AND i.id <> ALL(${room.full()}::uuid[])
  AND (due.instant_due OR due.paced_due)`;

const leaseUntil = (leaseMs: number) => Prisma.sql`now() + ${leaseMs}::int * interval '1 millisecond'`;

/**
 * Claims the emails for this worker under a lease: a row each in `email_claims` (leases.ts), the
 * emails themselves untouched. Answers the ids claimed: an email another worker claimed meanwhile
 * (read as unclaimed by both) is left to it, the unique key deciding.
 */
async function insertClaims(tx: pg.PoolClient, ids: string[], leaseMs: number): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await queryNamed<{ email_id: string }>(
    tx,
    Prisma.sql`
    INSERT INTO email_claims (email_id, locked_until) SELECT id, ${leaseUntil(leaseMs)} FROM unnest(${ids}::uuid[]) AS id
    ON CONFLICT (email_id) DO NOTHING
    RETURNING email_id`,
  );
  return new Set(rows.map((row) => row.email_id));
}

const RELAY_ORGANIZATIONS_PER_ROUND = 1000;

/** Queued relay emails (no inbox), by organization: the turn below skips through the queue index (inbox_id, organization_id, …). */
export const RELAY_QUEUE: OrganizationQueue = { table: "emails q", where: "q.inbox_id IS NULL AND q.status = 'queued'", leading: "q.inbox_id" };
const relayTurn = organizationTurn(RELAY_QUEUE);

/**
 * Organizations with queued relay emails, up to 1 000 a round in turn (lib/db/organizations-in-turn),
 * as `turn`: as cheap with one huge broadcast queued as with none, and past 1 000 organizations
 * waiting each round goes on where the last stopped instead of serving the same lowest ids for ever.
 * Only those with a due one are dealt a share (relayHasDueSql): an organization whose relay emails
 * all wait (for a retry, or for the sweep of a cancelled broadcast) would take a share of the batch
 * and claim nothing with it.
 */
function relayOrganizationsSql(options: ClaimOptions, room: ClaimRoom): { turn: Prisma.Sql; due: Prisma.Sql } {
  const due = Prisma.sql`ARRAY(SELECT t.id FROM turn t WHERE ${relayHasDueSql(Prisma.sql`t.id`, nowOf(options))})`;
  if (room.relay() <= 0) return { turn: Prisma.sql`SELECT NULL::uuid AS id WHERE false`, due };
  if (options.organizationIds) return { turn: Prisma.sql`SELECT o.id FROM unnest(${options.organizationIds}::uuid[]) AS o(id)`, due };
  return { turn: relayTurn.sql(RELAY_ORGANIZATIONS_PER_ROUND), due };
}

/**
 * What a claim may find, in one statement: the organizations with relay emails due (when the relay
 * has room) and whether any inbox has an email to claim now. Most claims of a busy worker find nothing
 * new (its destinations full, or other workers took the rest), and most of an idle worker's find
 * nothing at all: they end here instead of in a transaction of four more round trips. With three
 * workers through one relay, those claims kept each worker's claiming busy most of the time, and its
 * next batch waited behind them. Each part reads what it answers (inbox-queue.test.ts): the relay's
 * turn skips through the queue index, and an inbox's question is the claim's own (readyInboxSql).
 */
export function dueWorkSql(options: ClaimOptions): Prisma.Sql {
  const room = options.room ?? unlimited;
  const relay = relayOrganizationsSql(options, room);
  return Prisma.sql`WITH turn AS (${relay.turn})
    SELECT ARRAY(SELECT id FROM turn) AS relay_turn, ${relay.due} AS relay_orgs,
    EXISTS (SELECT 1 FROM inboxes i CROSS JOIN LATERAL (${inboxDueSql(options)}) due WHERE ${readyInboxSql(options, room)}) AS inbox_due`;
}

async function dueWork(options: ClaimOptions): Promise<{ relayOrgs: string[]; inboxDue: boolean }> {
  // Its own statement, outside the claim's transaction: most rounds end here.
  const [row] = await queryNamed<{ relay_turn: string[]; relay_orgs: string[]; inbox_due: boolean }>(claimPool(), dueWorkSql(options));
  // The turn goes on after the last organization it looked at, due or not: one that looked at only
  // organizations with nothing due would otherwise look at the same ones again every round.
  if (!options.organizationIds) relayTurn.served(row.relay_turn);
  return { relayOrgs: row.relay_orgs, inboxDue: row.inbox_due };
}

/** An inbox with something to claim: due instant emails, or a due paced one and its pacing gap passed. */
type ReadyInbox = InboxPacing & InboxServer & { used_today: number; instant_due: boolean; paced_due: boolean };

/**
 * Up to `budget` emails of one inbox (locked by the caller): due `instant` emails (transactional
 * ones included) within the daily limit, and one paced email when the inbox's pacing gap has
 * passed, after which the next gap is drawn.
 */
async function claimFromInbox(tx: pg.PoolClient, options: ClaimOptions, inbox: ReadyInbox, budget: number): Promise<Claimed[]> {
  if (budget <= 0) return [];
  const claimed: Claimed[] = [];
  let used = inbox.used_today;
  const instantRoom = Math.min(budget, inbox.daily_limit - used);
  if (inbox.instant_due && instantRoom > 0) {
    // The inbox's row lock (claimDueEmails) keeps any other worker from claiming its emails now.
    const rows = await queryNamed<{ id: string }>(tx, instantEmailsSql(inbox.id, nowOf(options), instantRoom));
    const won = await insertClaims(
      tx,
      rows.map((r) => r.id),
      options.leaseMs,
    );
    for (const id of won) claimed.push({ id, organization_id: inbox.organization_id, inbox_id: inbox.id });
    used += won.size;
  }

  let gapMs: number | null = null;
  let warmingUp = false;
  // No speed allows more than the daily limit (dailyCap): an inbox that reached it has no paced email to look for.
  if (inbox.paced_due && claimed.length < budget && used < inbox.daily_limit) {
    // An automation's emails through an inbox are paced at the inbox's own speed (auto), as a broadcast's are.
    const [next] = await queryNamed<{ id: string; sending_speed: SendingSpeed | null }>(tx, nextPacedEmailSql(inbox.id, nowOf(options)));
    if (next) {
      const speed = resolveSpeed(next.sending_speed, inbox);
      if (used < dailyCap(speed, inbox) && (await insertClaims(tx, [next.id], options.leaseMs)).size === 1) {
        claimed.push({ id: next.id, organization_id: inbox.organization_id, inbox_id: inbox.id });
        used += 1;
        gapMs = pacingGapMs(speed, options.paceScale);
        warmingUp = speed === "warmup";
      }
    }
  }

  if (used !== inbox.used_today || gapMs !== null) {
    await executeNamed(
      tx,
      Prisma.sql`
      UPDATE inboxes SET
        daily_sent_date = (now() AT TIME ZONE 'UTC')::date,
        daily_sent_count = ${used}::int,
        next_send_at = CASE WHEN ${gapMs}::int IS NULL THEN next_send_at ELSE now() + ${gapMs}::int * interval '1 millisecond' END,
        warmup_started_at = CASE WHEN ${warmingUp}::boolean THEN COALESCE(warmup_started_at, now()) ELSE warmup_started_at END
      WHERE id = ${inbox.id}::uuid`,
    );
  }
  return claimed;
}

/**
 * Takes up to `batchSize` due emails for this worker: each claimed under a lease (insertClaims).
 *
 * Per inbox whose from address is proven (an unverified one's emails wait), under its row lock (so
 * two workers never both spend one inbox's pacing slot or daily allowance): due `instant` emails (transactional ones included) up to the daily limit, and — when
 * its pacing gap has passed — one paced email, after which the next gap is drawn. The batch is
 * dealt fairly: first across organizations (in the order `room.order` gives), then across each
 * organization's inboxes and its relay emails, never beyond what `room` allows a destination.
 */
export async function claimDueEmails(options: ClaimOptions): Promise<Claimed[]> {
  const room = options.room ?? unlimited;
  const { relayOrgs, inboxDue } = await dueWork(options);
  if (relayOrgs.length === 0 && !inboxDue) return [];
  // Due emails are read through the queue indexes by index scans that stop at the batch's size.
  // A bitmap scan cannot stop early (it reads every candidate page first), nor mark index
  // entries of sent emails dead as an index scan does: with a million emails beside a running
  // broadcast, the planner chose one and each claim read 100 000 pages (1.6 s) — 363 emails/s
  // against 1 300 for the bare loop in the full benchmark. The claim's connections have them off
  // (engine-db.ts, claimPool).
  return inClaimTransaction(async (tx) => {
    // NO KEY UPDATE: still one claim per inbox at a time (its pacing and daily count are updated
    // below), but not in conflict with the KEY SHARE lock every insert of an email from the inbox
    // holds until it commits (the foreign key's check). With FOR UPDATE, a fan-out chunk writing
    // 5 000 emails for the inbox (1–1.5 s) made every claim skip it meanwhile: the list paused at
    // each chunk of its own broadcast.
    //
    // Only inboxes with something to claim: due instant emails, or a due paced one once the pacing
    // gap has passed. An inbox with a paced backlog between two gaps (nearly always) would otherwise
    // be locked, and dealt a share of the batch it cannot use, at every round.
    const inboxes = await queryNamed<ReadyInbox>(
      tx,
      Prisma.sql`
        SELECT i.id, i.organization_id, i.smtp_host, i.smtp_port, i.daily_limit, i.created_at, i.warmup_started_at, i.last_error_at,
          due.instant_due, due.paced_due,
          CASE WHEN i.daily_sent_date = (now() AT TIME ZONE 'UTC')::date THEN i.daily_sent_count ELSE 0 END AS used_today
        FROM inboxes i
        CROSS JOIN LATERAL (${inboxDueSql(options)}) due
        WHERE ${readyInboxSql(options, room)}
        ORDER BY random()
        LIMIT 100
        FOR NO KEY UPDATE OF i SKIP LOCKED`,
    );

    const inboxRoom = new Map(
      inboxes.map((inbox) => [inbox.id, inbox.instant_due ? Math.max(0, Math.min(room.inbox(inbox), inbox.daily_limit - inbox.used_today)) : 0]),
    );
    const orgs = room.order([...new Set([...inboxes.map((i) => i.organization_id), ...relayOrgs])]);
    // An organization can take at most what its destinations have room for.
    const relayRoom = room.relay();
    const orgCap = (org: string) =>
      inboxes.filter((i) => i.organization_id === org).reduce((sum, i) => sum + inboxRoom.get(i.id)! + (i.paced_due ? 1 : 0), 0) +
      (relayOrgs.includes(org) ? relayRoom : 0);
    const orgShares = deal(options.batchSize, orgs, orgCap);

    const claimed: Claimed[] = [];
    const relayShares = new Map<string, number>();
    let relayLeft = relayRoom;
    for (const org of orgs) {
      const own = inboxes.filter((i) => i.organization_id === org);
      const destinations = [...own.map((i) => i.id), ...(relayOrgs.includes(org) ? ["relay"] : [])];
      const allotted = deal(orgShares.get(org)!, destinations, (key) =>
        key === "relay" ? relayLeft : inboxRoom.get(key)! + (own.find((i) => i.id === key)!.paced_due ? 1 : 0),
      );
      for (const inbox of own) claimed.push(...(await claimFromInbox(tx, options, inbox, Math.min(allotted.get(inbox.id)!, inboxRoom.get(inbox.id)! + 1))));
      const relayShare = allotted.get("relay") ?? 0;
      if (relayShare > 0) {
        relayShares.set(org, relayShare);
        relayLeft -= relayShare;
      }
    }
    // Relay emails are claimed in the same transaction: the inbox locks and the claim commit together.
    const viaRelay = relayShares.size > 0 ? await claimRelayIn(tx, options, relayShares) : [];
    return [...claimed, ...viaRelay];
  });
}

async function claimRelayIn(tx: pg.PoolClient, options: ClaimOptions, shares: Map<string, number>): Promise<Claimed[]> {
  const wanted = [...shares].filter(([, n]) => n > 0);
  if (wanted.length === 0) return [];
  return queryNamed<Claimed>(tx, relayClaimSql(options, new Map(wanted)));
}

/** The relay's claim: up to each organization's share of its due relay emails, claimed under a lease. */
export function relayClaimSql(options: Pick<ClaimOptions, "leaseMs" | "now">, shares: Map<string, number>): Prisma.Sql {
  return Prisma.sql`
    WITH want AS (
      SELECT * FROM unnest(${[...shares.keys()]}::uuid[], ${[...shares.values()]}::int[]) AS w(organization_id, share)
    ),
    picked AS (
      -- Another worker's claim in progress holds its emails' row locks: this one takes the next
      -- emails instead of the same ones. Without it, workers claiming at once read the same first
      -- rows of the index, and every one but the first waited for that claim's commit to get
      -- nothing (measured: three workers sent 1.7 times what one does, not three).
      SELECT p.id FROM want w CROSS JOIN LATERAL (${relayEmailsSql(Prisma.sql`w.organization_id`, nowOf(options), Prisma.sql`w.share`)}) p
    ),
    won AS (
      -- A claim committed after this statement began is not skipped (its locks are gone) nor seen:
      -- the claim's unique key still gives each email to one worker.
      INSERT INTO email_claims (email_id, locked_until) SELECT id, ${leaseUntil(options.leaseMs)} FROM picked
      ON CONFLICT (email_id) DO NOTHING
      RETURNING email_id
    )
    SELECT e.id, e.organization_id, e.inbox_id FROM won JOIN emails e ON e.id = won.email_id`;
}
