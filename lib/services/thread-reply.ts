import type { OrgContext } from "@/lib/domain/context";
import { AppError, notFound } from "@/lib/domain/errors";
import type { Prisma } from "@/lib/db";
import type { Email, Thread } from "@/lib/generated/prisma/client";
import type { ReplyToThreadInput } from "@/lib/schemas/threads";
import { normalizeEmail } from "@/lib/schemas/common";
import { htmlToText } from "@/lib/templating/html-to-text";
import { withIdempotency } from "./idempotency";
import { domainOf } from "@/lib/domain/addresses";
import { assertInboxesVerified } from "./sender-proof";
import { emailRecords } from "./transactional";
import { assertNotSuppressed } from "./transactional-checks";

type Answered = Pick<
  Email,
  "direction" | "message_id" | "in_reply_to" | "references" | "from_email" | "reply_to" | "to_email" | "subject" | "inbox_id" | "headers"
>;

// RFC 5322 lets a long References field be trimmed from the middle; mail clients need its first (the
// conversation's root) and its last entries to thread.
const MAX_REFERENCES = 20;

/** "Re: " once, whatever prefixes the subject already has in English, German or French. */
const replySubject = (subject: string) => `Re: ${subject.replace(/^(?:\s*(?:re|aw|sv|antw|réf|tr)\s*:\s*)+/i, "")}`.slice(0, 998);

/** The answered message's References, else its In-Reply-To, then its own Message-ID (RFC 5322 §3.6.4). */
function referencesOf(answered: Answered): string[] {
  const earlier = answered.references.length > 0 ? answered.references : answered.in_reply_to ? [answered.in_reply_to] : [];
  const all = [...new Set([...earlier, answered.message_id])];
  return all.length <= MAX_REFERENCES ? all : [all[0], ...all.slice(all.length - MAX_REFERENCES + 1)];
}

/**
 * The subject the answered message had in the recipient's mailbox: a received one's own; a sent one's
 * as rendered (its row and the thread keep a broadcast's subject template, `Idea for {{first_name}}`).
 */
function subjectAsSeen(answered: Answered): string {
  const sent = (answered.headers as Record<string, unknown> | null)?.Subject;
  return answered.direction === "outbound" && typeof sent === "string" ? sent : answered.subject;
}

/** The message a reply answers: the latest one received in the thread, else its latest sent. */
async function answeredMessage(tx: Prisma.TransactionClient, ctx: OrgContext, threadId: string): Promise<Answered | null> {
  const select = {
    direction: true,
    message_id: true,
    in_reply_to: true,
    references: true,
    from_email: true,
    reply_to: true,
    to_email: true,
    subject: true,
    inbox_id: true,
    headers: true,
  };
  const orderBy = [{ created_at: "desc" as const }, { id: "desc" as const }];
  const where = { thread_id: threadId, organization_id: ctx.organizationId };
  return (
    (await tx.email.findFirst({ where: { ...where, direction: "inbound" }, orderBy, select })) ??
    (await tx.email.findFirst({ where: { ...where, status: { notIn: ["cancelled", "failed"] } }, orderBy, select }))
  );
}

/** The inbox the reply goes out from: the thread's own, else the one that received the reply (a relay broadcast's reply-to). */
async function sendingInbox(tx: Prisma.TransactionClient, ctx: OrgContext, thread: Pick<Thread, "inbox_id">, answered: Answered) {
  const id = thread.inbox_id ?? (answered.direction === "inbound" ? answered.inbox_id : null);
  const inbox = id ? await tx.inbox.findFirst({ where: { id, organization_id: ctx.organizationId } }) : null;
  if (!inbox) throw new AppError("BAD_REQUEST", "This thread has no inbox to reply from: it was sent through the relay and no inbox received its reply");
  if (inbox.status === "error") {
    throw new AppError(
      "INBOX_CONNECTION_FAILED",
      `The inbox ${inbox.name} is stopped (${inbox.last_error ?? "its connection failed"}): test or reconnect it first`,
    );
  }
  await assertInboxesVerified(tx, ctx, [{ id: inbox.id, path: "inbox_id" }]);
  return inbox;
}

function contentOf(input: ReplyToThreadInput, draft: { subject: string | null; html_content: string; text_content: string } | null) {
  if (input.use_draft && !draft)
    throw new AppError("VALIDATION_ERROR", "Invalid request body", [{ path: "use_draft", message: "the thread has no saved draft" }]);
  const html = input.html_content ?? (input.use_draft ? draft!.html_content : undefined);
  const text = input.text_content ?? (input.use_draft ? draft!.text_content : undefined);
  if (!html?.trim() && !text?.trim()) {
    const path = input.use_draft ? "use_draft" : "text_content";
    throw new AppError("VALIDATION_ERROR", "Invalid request body", [{ path, message: "a reply needs html_content or text_content (or a draft with content)" }]);
  }
  return { html: html?.trim() ? html : null, text: text?.trim() ? text : htmlToText(html!), subject: input.use_draft ? (draft!.subject ?? null) : null };
}

/**
 * `POST /v1/threads/{threadId}/reply`: queues a reply from the thread's inbox to whoever wrote last,
 * threaded under the message it answers (In-Reply-To, References, "Re:" subject), in the thread; the
 * thread's draft is gone in the same transaction. The sending engine sends it through the inbox's own
 * server, with its password or OAuth token. The thread's row is locked meanwhile, so two people
 * sending the same draft at once send it once (the second finds no draft).
 */
export function replyToThread(ctx: OrgContext, threadId: string, input: ReplyToThreadInput, idempotencyKey: string | null) {
  return withIdempotency(ctx, idempotencyKey, { thread_id: threadId, ...input }, async (tx) => {
    const [thread] = await tx.$queryRaw<Pick<Thread, "id" | "inbox_id" | "contact_id">[]>`
      SELECT id, inbox_id, contact_id FROM threads WHERE id = ${threadId}::uuid AND organization_id = ${ctx.organizationId}::uuid FOR UPDATE`;
    if (!thread) throw notFound("Thread");
    const draft = await tx.threadDraft.findFirst({ where: { thread_id: threadId, organization_id: ctx.organizationId } });
    const content = contentOf(input, draft);
    const answered = await answeredMessage(tx, ctx, threadId);
    if (!answered) throw new AppError("BAD_REQUEST", "This thread has no message to reply to");
    const inbox = await sendingInbox(tx, ctx, thread, answered);
    const to = answered.direction === "inbound" ? (answered.reply_to ?? answered.from_email) : answered.to_email;
    const suppressed = await tx.suppression.findMany({ where: { organization_id: ctx.organizationId, email: normalizeEmail(to) } });
    assertNotSuppressed(suppressed, [{ recipients: { to: [to], toGivenAsList: false, cc: [], bcc: [] }, prefix: "" }]);

    const subject = content.subject ?? replySubject(subjectAsSeen(answered));
    const [{ id }] = await tx.$queryRaw<{ id: string }[]>`
      WITH n AS (SELECT uuid_v7() AS id)
      INSERT INTO emails (id, organization_id, message_id, from_email, from_name, to_email, reply_to, subject, html_content, text_content,
        contact_id, inbox_id, thread_id, in_reply_to, "references", status)
      SELECT n.id, ${ctx.organizationId}::uuid, '<' || n.id || '@' || ${domainOf(inbox.from_email)} || '>', ${inbox.from_email}, ${inbox.from_name},
        ${to}, ${inbox.reply_to}, ${subject}, ${content.html}, ${content.text}, ${thread.contact_id}::uuid, ${inbox.id}::uuid, ${threadId}::uuid,
        ${answered.message_id}, ${referencesOf(answered)}::text[], 'queued'
      FROM n RETURNING id::text`;
    await tx.$executeRaw`UPDATE threads SET last_message_at = now(), updated_at = now() WHERE id = ${threadId}::uuid AND organization_id = ${ctx.organizationId}::uuid`;
    await tx.threadDraft.deleteMany({ where: { thread_id: threadId, organization_id: ctx.organizationId } });
    return (await emailRecords(tx, ctx, [id]))[0];
  });
}
