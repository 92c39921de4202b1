import type { Email, FeedbackReport } from "@/lib/generated/prisma/client";
import { db, Prisma } from "@/lib/db";
import { runSql, type SqlClient } from "@/lib/events/record";
import { domainOf } from "@/lib/domain/addresses";
import { reportFingerprint } from "./fingerprint";
import { arfOutcome, dsnOutcome, parseReport, type FeedbackKind, type ParsedReport } from "./parse-report";
import { recordFeedback, type FeedbackOutcome } from "./record-feedback";
import { readReturnPath } from "./verp";
import { errorField, log } from "@/lib/log";
import { tripBreakersForEmails } from "@/lib/sending/breakers";

type Claimed = Pick<FeedbackReport, "id" | "source" | "recipient" | "organization_id" | "inbox_id" | "raw" | "attempts">;
type Target = Pick<Email, "id" | "organization_id" | "to_email" | "from_email" | "message_id"> & { others?: string[] | null };
/** What became of one report. */
type Verdict = {
  id: string;
  status: "processed" | "discarded";
  result: string;
  organizationId: string | null;
  emailId: string | null;
  outcome?: FeedbackOutcome;
};

const MAX_ATTEMPTS = 5;
const LEASE_SECONDS = 120;
/**
 * Bytes of stored reports one batch reads (besides its first report, whatever its size). A batch
 * was 200 reports whatever their size: 200 reports of 2 MB are 400 MB read at once and parsed side
 * by side, which took the worker to +1.2 GB during a flood. A real DSN is a few KB, so a batch of
 * them is still 200.
 */
const BATCH_BYTES = 16 * 1024 * 1024;

/**
 * Stores a report found in an inbox, for the worker to record like one that came by SMTP. Answers
 * false for a repeat. `client`: the transaction that moves the inbox's mark past it (lib/replies).
 */
export async function queueInboxReport(inbox: { id: string; organization_id: string }, raw: Buffer, client: SqlClient = db): Promise<boolean> {
  const fingerprint = reportFingerprint(`inbox:${inbox.id}`, raw);
  const inserted = await runSql(
    client,
    `INSERT INTO feedback_reports (source, recipient, inbox_id, organization_id, fingerprint, raw)
     VALUES ('imap', $1, $2::uuid, $3::uuid, $4, $5) ON CONFLICT (fingerprint) DO NOTHING RETURNING id`,
    [`inbox:${inbox.id}`, inbox.id, inbox.organization_id, fingerprint, raw],
  );
  return inserted.length > 0;
}

/**
 * The DSN recipient the report is about: the one naming the email's address, else the first. For
 * an email to several (POST /v1/emails with more to, cc or bcc), a report naming only its other
 * recipients changes nothing: the email's bounce and suppression are its first recipient's, and
 * would otherwise suppress that address for another's bounce.
 */
function outcomeOf(report: ParsedReport, to: string, others: string[]): { kind: FeedbackKind; status: string | null; diagnostic: string | null } | null {
  if (report.kind === "arf") {
    const kind = arfOutcome(report.feedbackType);
    return kind ? { kind, status: null, diagnostic: report.feedbackType } : null;
  }
  const address = to.trim().toLowerCase();
  const named = report.recipients.find((r) => r.finalRecipient === address || r.originalRecipient === address);
  const aboutOthers = report.recipients.some((r) => others.includes(r.finalRecipient ?? "") || others.includes(r.originalRecipient ?? ""));
  if (!named && aboutOthers) return null;
  const recipient = named ?? report.recipients[0];
  const kind = dsnOutcome(recipient);
  return kind ? { kind, status: recipient.status, diagnostic: recipient.diagnostic } : null;
}

/**
 * Which email each report is about. By SMTP: the VERP token of the address it was sent to (its MAC
 * checked again, and its host the return path of the email's own sender domain). From an inbox: the
 * original Message-ID the report quotes, among that inbox's organization's emails only.
 */
async function findTargets(reports: { claimed: Claimed; report: ParsedReport }[]): Promise<Map<string, Target>> {
  const targets = new Map<string, Target>();
  const tokens = reports.flatMap(({ claimed }) => {
    if (claimed.source !== "smtp") return [];
    const read = readReturnPath(claimed.recipient);
    return read ? [{ report: claimed.id, ...read }] : [];
  });
  if (tokens.length > 0) {
    const rows = await db.$queryRaw<(Target & { return_path_host: string | null })[]>`
      SELECT e.id, e.organization_id, e.to_email, e.from_email, e.message_id, d.return_path || '.' || d.name AS return_path_host,
             e.to_addresses || e.cc || e.bcc AS others
      FROM emails e
      LEFT JOIN domains d ON d.organization_id = e.organization_id AND d.name = lower(split_part(e.from_email, '@', 2))
      WHERE e.id = ANY(${tokens.map((t) => t.emailId)}::uuid[]) AND e.direction = 'outbound'`;
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const token of tokens) {
      const row = byId.get(token.emailId);
      if (row && row.return_path_host === token.host && domainOf(row.from_email) === token.host.slice(token.host.indexOf(".") + 1))
        targets.set(token.report, row);
    }
  }
  const quoted = reports.filter(({ claimed, report }) => claimed.source === "imap" && claimed.organization_id && report.originalMessageId);
  if (quoted.length > 0) {
    const pairs = JSON.stringify(quoted.map(({ claimed, report }) => ({ organization_id: claimed.organization_id, message_id: report.originalMessageId })));
    const rows = await db.$queryRaw<Target[]>`
      SELECT DISTINCT ON (e.organization_id, e.message_id) e.id, e.organization_id, e.to_email, e.from_email, e.message_id,
             e.to_addresses || e.cc || e.bcc AS others
      FROM jsonb_to_recordset(${pairs}::jsonb) AS q(organization_id uuid, message_id text)
      JOIN emails e ON e.organization_id = q.organization_id AND e.message_id = q.message_id AND e.direction = 'outbound'
      ORDER BY e.organization_id, e.message_id, e.created_at DESC`;
    for (const { claimed, report } of quoted) {
      const row = rows.find((r) => r.organization_id === claimed.organization_id && r.message_id === report.originalMessageId);
      if (row) targets.set(claimed.id, row);
    }
  }
  return targets;
}

async function judge(claimed: Claimed[]): Promise<Verdict[]> {
  // One at a time, each message let go once read: a parse holds a few times its message.
  const parsed: { claimed: Claimed; report: ParsedReport | null }[] = [];
  for (const c of claimed) {
    const raw = c.raw;
    c.raw = null;
    parsed.push({ claimed: c, report: raw ? await parseReport(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength)) : null });
  }
  const readable = parsed.filter((p): p is { claimed: Claimed; report: ParsedReport } => p.report !== null);
  const targets = await findTargets(readable);
  return parsed.map(({ claimed, report }): Verdict => {
    const discard = (result: string): Verdict => ({ id: claimed.id, status: "discarded", result, organizationId: claimed.organization_id, emailId: null });
    if (!report) return discard("not a delivery status notification or feedback report");
    const target = targets.get(claimed.id);
    if (!target)
      return discard(
        claimed.source === "smtp" ? "the return-path token names no email of this domain" : "the original message is not one of this organization's emails",
      );
    const others = (target.others ?? []).map((a) => a.trim().toLowerCase()).filter((a) => a !== target.to_email.trim().toLowerCase());
    const outcome = outcomeOf(report, target.to_email, others);
    if (!outcome)
      return { id: claimed.id, status: "processed", result: "no change (nothing to record)", organizationId: target.organization_id, emailId: target.id };
    return {
      id: claimed.id,
      status: "processed",
      result: outcome.kind,
      organizationId: target.organization_id,
      emailId: target.id,
      outcome: { emailId: target.id, organizationId: target.organization_id, source: claimed.source, ...outcome },
    };
  });
}

async function settle(tx: Prisma.TransactionClient, verdicts: Verdict[], changed: Set<string>) {
  const credited = new Set<string>();
  const rows = verdicts.map((v) => {
    // A report that changed nothing (a repeat of one recorded before, or of another in the batch) says so.
    const key = v.outcome ? `${v.outcome.emailId}:${v.outcome.kind}` : "";
    const fresh = v.outcome !== undefined && changed.has(v.outcome.emailId) && !credited.has(key);
    if (fresh) credited.add(key);
    const result = v.outcome && !fresh ? `${v.result} (already recorded)` : v.result;
    return { id: v.id, status: v.status, result, organization_id: v.organizationId, email_id: v.emailId };
  });
  // The message itself is dropped once read: what it meant is on the email; the row keeps the verdict.
  await tx.$executeRaw`
    UPDATE feedback_reports r SET status = v.status::"FeedbackReportStatus", result = v.result, organization_id = COALESCE(r.organization_id, v.organization_id),
      email_id = v.email_id, raw = NULL, locked_until = NULL, processed_at = now()
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v(id uuid, status text, result text, organization_id uuid, email_id uuid)
    WHERE r.id = v.id`;
}

async function record(verdicts: Verdict[]) {
  await db.$transaction(
    async (tx) => {
      const changed = await recordFeedback(
        tx,
        verdicts.flatMap((v) => (v.outcome ? [v.outcome] : [])),
      );
      await settle(tx, verdicts, changed);
    },
    { timeout: 60_000, maxWait: 30_000 },
  );
}

/**
 * The report-processing task (a worker loop): claims a batch of stored reports, parses each,
 * finds its email and records every outcome in one transaction. A batch that fails to record is
 * retried report by report, so one bad report cannot hold up the others; a report that keeps
 * failing is discarded after a few attempts. Malformed, unmatched or forged reports are
 * discarded with the reason and change nothing. Answers how many reports it handled.
 */
export async function processFeedbackReports(options: { limit?: number; organizationId?: string } = {}): Promise<number> {
  const orgFilter = options.organizationId ? Prisma.sql`AND organization_id = ${options.organizationId}::uuid` : Prisma.empty;
  // The oldest reports up to BATCH_BYTES (octet_length reads a stored value's size without reading
  // the value); rows locked here but past the budget are free again when the statement ends.
  const claimed = await db.$queryRaw<Claimed[]>`
    WITH due AS (
      SELECT id, received_at, coalesce(octet_length(raw), 0) AS size FROM feedback_reports
      WHERE (status = 'pending' OR (status = 'processing' AND locked_until < now())) ${orgFilter}
      ORDER BY received_at
      LIMIT ${options.limit ?? 200}
      FOR UPDATE SKIP LOCKED
    ),
    within AS (
      SELECT id FROM (SELECT id, sum(size) OVER (ORDER BY received_at, id) - size AS before FROM due) d WHERE before < ${BATCH_BYTES}
    )
    UPDATE feedback_reports r SET status = 'processing', attempts = r.attempts + 1, locked_until = now() + make_interval(secs => ${LEASE_SECONDS})
    FROM within WHERE r.id = within.id
    RETURNING r.id, r.source::text AS source, r.recipient, r.organization_id, r.inbox_id, r.raw, r.attempts`;
  if (claimed.length === 0) return 0;
  const exhausted = claimed.filter((c) => c.attempts > MAX_ATTEMPTS);
  const verdicts = await judge(claimed.filter((c) => c.attempts <= MAX_ATTEMPTS));
  verdicts.push(
    ...exhausted.map((c): Verdict => ({
      id: c.id,
      status: "discarded",
      result: "could not be recorded after several attempts",
      organizationId: c.organization_id,
      emailId: null,
    })),
  );
  // Bounces and complaints count towards the circuit breakers of their broadcasts and inboxes.
  const judged = verdicts.flatMap((v) =>
    v.outcome && (v.outcome.kind === "hard_bounce" || v.outcome.kind === "complaint")
      ? [{ id: v.outcome.emailId, organizationId: v.outcome.organizationId }]
      : [],
  );
  try {
    await record(verdicts);
  } catch (error) {
    log.warn({ err: errorField(error) }, "feedback: recording a batch failed; recording report by report");
    for (const verdict of verdicts) {
      try {
        await record([verdict]);
      } catch (single) {
        // Left `processing`: its lease runs out and it is tried again, up to MAX_ATTEMPTS.
        log.warn({ report_id: verdict.id, err: errorField(single) }, "feedback: a report could not be recorded");
      }
    }
  }
  await tripBreakersForEmails(judged);
  return claimed.length;
}

let lastPrune = 0;

/** Reports older than 30 days are deleted, at most once an hour per process. */
export async function pruneFeedbackReports(now = Date.now()): Promise<number> {
  if (now - lastPrune < 60 * 60 * 1000) return 0;
  lastPrune = now;
  return db.$executeRaw`DELETE FROM feedback_reports WHERE received_at < now() - interval '30 days' AND status IN ('processed', 'discarded')`;
}
