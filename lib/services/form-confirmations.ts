import type { OrgContext } from "@/lib/domain/context";
import { AppError } from "@/lib/domain/errors";
import { db, type Prisma } from "@/lib/db";
import { organizationTurn } from "@/lib/db/organizations-in-turn";
import { errorField, log } from "@/lib/log";
import { confirmationUrl, type SubmittedValues } from "./form-submissions";
import { createEmails, type EmailRequest } from "./transactional";

/** Organizations served in one round, and confirmations of each: one tenant's flood of signups delays no other's by more than a round. */
const ORGANIZATIONS_PER_ROUND = 50;
const PER_ORGANIZATION = 50;

type Due = {
  submission_id: string;
  organization_id: string;
  form_id: string;
  values: SubmittedValues;
  from_email: string | null;
  from_name: string | null;
  inbox_id: string | null;
  confirmation_subject: string;
  confirmation_html: string;
  organization_name: string;
};

// The organizations with confirmations due come in turn (lib/db/organizations-in-turn: past 50 waiting,
// each round goes on where the last stopped), each giving its oldest; claimed rows are deleted in the
// caller's transaction, so a worker that dies leaves them to the next, and SKIP LOCKED leaves what
// another worker holds to it. The submission and its form come along.
const queue = organizationTurn({ table: "form_confirmations q" });
const CLAIM = `
  WITH claimed AS (
    SELECT c.submission_id FROM unnest($2::uuid[]) AS orgs(id) CROSS JOIN LATERAL (
      SELECT q.submission_id FROM form_confirmations q WHERE q.organization_id = orgs.id
      ORDER BY q.created_at LIMIT $1::int FOR UPDATE SKIP LOCKED
    ) c
  ), done AS (
    DELETE FROM form_confirmations q USING claimed WHERE q.submission_id = claimed.submission_id RETURNING q.submission_id
  )
  SELECT s.id AS submission_id, s.organization_id, s.form_id, s.values, f.from_email, f.from_name, f.inbox_id,
         f.confirmation_subject, f.confirmation_html, o.name AS organization_name
  FROM done
  JOIN form_submissions s ON s.id = done.submission_id
  JOIN forms f ON f.id = s.form_id AND f.organization_id = s.organization_id
  JOIN organizations o ON o.id = s.organization_id
  ORDER BY s.organization_id, s.form_id, s.created_at`;

/** The confirmation email of one submission, as the organization's own transactional email from its form's sender. */
function request(due: Due): EmailRequest {
  const from = due.from_email ? (due.from_name ? `"${due.from_name.replace(/["<>\\]/g, "")}" <${due.from_email}>` : due.from_email) : undefined;
  return {
    input: {
      to: due.values.email,
      from,
      inbox_id: due.inbox_id ?? undefined,
      subject: due.confirmation_subject,
      html: due.confirmation_html,
      variables: {
        confirm_url: confirmationUrl(due.submission_id),
        organization_name: due.organization_name,
        ...(due.values.first_name ? { first_name: due.values.first_name } : {}),
      },
      tags: ["form-confirmation"],
    },
    attachments: [],
  };
}

/** Runs `write` in a savepoint: an email refused (AppError) rolls back its own writes alone and answers it. */
async function attempt(tx: Prisma.TransactionClient, write: () => Promise<unknown>): Promise<AppError | null> {
  await tx.$executeRaw`SAVEPOINT confirmation`;
  try {
    await write();
    await tx.$executeRaw`RELEASE SAVEPOINT confirmation`;
    return null;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    await tx.$executeRaw`ROLLBACK TO SAVEPOINT confirmation`;
    return error;
  }
}

/**
 * One form's due confirmations, written as emails in one go (createEmails is set-based). One that
 * cannot be sent (a sender unverified since the form was saved, an address suppressed since) is
 * not retried: the submission stands and the log says why no email went. When the batch is refused,
 * each is tried on its own so the others still go.
 */
async function writeForForm(tx: Prisma.TransactionClient, rows: Due[]) {
  // The form acts for the organization, as no member: no key scope, no user.
  const ctx: OrgContext = { organizationId: rows[0].organization_id, role: "owner", userId: "", userEmail: "", apiKeyId: null };
  const options = { idempotencyKey: null, batch: false };
  if (!(await attempt(tx, () => createEmails(tx, ctx, rows.map(request), options)))) return;
  for (const due of rows) {
    const refused = await attempt(tx, () => createEmails(tx, ctx, [request(due)], options));
    if (refused) {
      log.warn(
        { err: errorField(refused), form_id: due.form_id, organization_id: due.organization_id, submission_id: due.submission_id },
        "form confirmation not sent",
      );
    }
  }
}

/**
 * The worker's round (forms:confirmations): the confirmation emails submissions are owed, queued for
 * the sender like any transactional email, in one transaction with the claim. Answers how many
 * submissions it handled. `organizationIds` keeps a round to those organizations (tests).
 */
export async function queueDueConfirmations({ organizationIds }: { organizationIds?: string[] } = {}): Promise<number> {
  return db.$transaction(
    async (tx) => {
      const organizations = organizationIds ? organizationIds.slice(0, ORGANIZATIONS_PER_ROUND) : await queue.next(tx, ORGANIZATIONS_PER_ROUND);
      if (organizations.length === 0) return 0;
      const due = await tx.$queryRawUnsafe<Due[]>(CLAIM, PER_ORGANIZATION, organizations);
      const byForm = new Map<string, Due[]>();
      for (const row of due) byForm.set(row.form_id, [...(byForm.get(row.form_id) ?? []), row]);
      for (const rows of byForm.values()) await writeForForm(tx, rows);
      return due.length;
    },
    { timeout: 60_000 },
  );
}
