import { canManageMembers, overridingSafetyNeedsAdmin, type OrgContext } from "@/lib/domain/context";
import { AppError, notFound } from "@/lib/domain/errors";
import { cursorPage } from "@/lib/services/cursor-page";
import type { CursorParams } from "@/lib/schemas/pagination";
import { sealSecret } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db";
import type { Inbox, Prisma } from "@/lib/generated/prisma/client";
import { checkEndpoint, defaultOutboundPolicy, refusalMessage, type OutboundPolicy } from "@/lib/net/outbound-policy";
import type { CreateInboxInput, UpdateInboxInput } from "@/lib/schemas/inboxes";
import { env } from "@/lib/env";
import { recordAudit } from "./audit-log";
import { testInboxConnection, type CandidateInbox } from "./inbox-connection-test";
import { healthy } from "@/lib/inboxes/inbox-health";
import { verifiedDomainNames } from "@/lib/senders/proof";
import { inboxVerification } from "./sender-proof";

function serialize(row: Inbox, verifiedDomains: ReadonlySet<string>) {
  return {
    id: row.id,
    organization_id: row.organization_id,
    name: row.name,
    from_email: row.from_email,
    from_name: row.from_name,
    reply_to: row.reply_to,
    daily_limit: row.daily_limit,
    paused: row.paused,
    paused_reason: row.paused ? (row.paused_reason ?? "manual") : null,
    paused_at: row.paused ? row.paused_at : null,
    last_error: row.last_error,
    auth: row.auth_type === "oauth2" && row.oauth_provider ? { type: "oauth2" as const, provider: row.oauth_provider } : { type: "password" as const },
    status: row.status,
    failed_at: row.status === "error" ? row.failed_at : null,
    verification: inboxVerification(row, verifiedDomains),
    smtp: {
      host: row.smtp_host,
      port: row.smtp_port,
      secure: row.smtp_secure,
      username: row.smtp_username,
      has_password: row.smtp_password_encrypted !== null,
    },
    imap:
      row.imap_host === null
        ? null
        : {
            host: row.imap_host,
            port: row.imap_port,
            secure: row.imap_secure,
            username: row.imap_username,
            has_password: row.imap_password_encrypted !== null,
          },
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const sealed = (password: string | null | undefined) => (password ? sealSecret(password) : password);

const noImap = {
  imap_host: null,
  imap_port: null,
  imap_secure: null,
  imap_username: null,
  imap_password_encrypted: null,
  imap_last_uid: null,
  imap_last_polled_at: null,
} satisfies Prisma.InboxUncheckedUpdateInput;

type Server = { host: string; port: number };

/**
 * Refuses servers the outbound address policy does not let the worker reach (loopback, private,
 * link-local, metadata, the platform's own relay), on what the names resolve to now; the worker
 * checks again when it connects. 400 naming the field, without saying what a name resolved to.
 */
async function assertReachable(servers: { path: string; server: Server | null }[], policy: OutboundPolicy) {
  const problems: { path: string; message: string }[] = [];
  for (const { path, server } of servers) {
    if (!server) continue;
    const verdict = await checkEndpoint(server.host, server.port, policy, "save");
    if (!verdict.allowed) problems.push({ path, message: refusalMessage(verdict.refusal) });
  }
  if (problems.length > 0) throw new AppError("VALIDATION_ERROR", "The server address is not allowed", problems);
}

/** `testConnection`: sign in to the servers before saving (INBOX_CONNECTION_TEST; 400 INBOX_CONNECTION_FAILED when they refuse). */
export async function createInbox(ctx: OrgContext, input: CreateInboxInput, policy = defaultOutboundPolicy(), testConnection = env.inboxConnectionTest) {
  const { smtp, imap } = input;
  await assertReachable(
    [
      { path: "smtp.host", server: smtp },
      { path: "imap.host", server: imap ?? null },
    ],
    policy,
  );
  const data = {
    organization_id: ctx.organizationId,
    name: input.name,
    from_email: input.from_email,
    from_name: input.from_name,
    reply_to: input.reply_to,
    daily_limit: input.daily_limit,
    smtp_host: smtp.host,
    smtp_port: smtp.port,
    smtp_secure: smtp.secure,
    smtp_username: smtp.username ?? null,
    smtp_password_encrypted: sealed(smtp.password) ?? null,
    imap_host: imap?.host ?? null,
    imap_port: imap?.port ?? null,
    imap_secure: imap?.secure ?? null,
    imap_username: imap?.username ?? null,
    imap_password_encrypted: imap ? sealSecret(imap.password) : null,
  };
  if (testConnection) await testInboxConnection({ ...data, id: "", auth_type: "password" }, policy);
  const row = await db.inbox.create({ data });
  await recordAudit(ctx, { action: "inbox.created", target: { type: "inbox", id: row.id }, details: { from_email: row.from_email, smtp_host: row.smtp_host } });
  return serialize(row, await verifiedDomainNames(db, ctx.organizationId));
}

export async function listInboxes(ctx: OrgContext, page: CursorParams) {
  const where = { organization_id: ctx.organizationId };
  const result = await cursorPage(
    page,
    (args) => db.inbox.findMany({ where: { ...where, ...args.where }, orderBy: args.orderBy, take: args.take }),
    (id) => db.inbox.findFirst({ where: { ...where, id }, select: { id: true, created_at: true } }),
  );
  const domains = await verifiedDomainNames(db, ctx.organizationId);
  return { ...result, data: result.data.map((row) => serialize(row, domains)) };
}

async function findInbox(ctx: OrgContext, id: string) {
  const row = await db.inbox.findFirst({ where: { id, organization_id: ctx.organizationId } });
  if (!row) throw notFound("Inbox");
  return row;
}

export const getInbox = async (ctx: OrgContext, id: string) => {
  const [row, domains] = await Promise.all([findInbox(ctx, id), verifiedDomainNames(db, ctx.organizationId)]);
  return serialize(row, domains);
};

/** Proof is of an address sent through one server: another address or another server must be proven again. */
const noSenderProof = {
  sender_confirmed_at: null,
  sender_token_hash: null,
  sender_token_expires_at: null,
  sender_token_sent_at: null,
} satisfies Prisma.InboxUncheckedUpdateInput;

function senderChanged(current: Inbox, input: UpdateInboxInput): boolean {
  const differs = <T>(given: T | undefined, stored: T) => given !== undefined && given !== stored;
  const smtp = input.smtp;
  return (
    (input.from_email !== undefined && input.from_email.trim().toLowerCase() !== current.from_email.trim().toLowerCase()) ||
    (smtp?.host !== undefined && smtp.host.trim().toLowerCase() !== current.smtp_host.trim().toLowerCase()) ||
    differs(smtp?.port, current.smtp_port) ||
    differs(smtp?.username, current.smtp_username)
  );
}

function imapChanges(current: Inbox, imap: UpdateInboxInput["imap"]): Prisma.InboxUncheckedUpdateInput {
  if (imap === undefined) return {};
  if (imap === null) return noImap;
  if (current.imap_host === null) {
    const missing = (["host", "port", "secure", "username", "password"] as const).filter((field) => imap[field] === undefined);
    if (missing.length > 0) {
      throw new AppError(
        "VALIDATION_ERROR",
        "Adding IMAP needs host, port, secure, username and password",
        missing.map((field) => ({ path: `imap.${field}`, message: "is required when adding IMAP" })),
      );
    }
  }
  // Another server or mailbox has its own UID numbering: reading starts over.
  const mailboxChanged =
    (imap.host !== undefined && imap.host !== current.imap_host) || (imap.username !== undefined && imap.username !== current.imap_username);
  return {
    imap_host: imap.host,
    imap_port: imap.port,
    imap_secure: imap.secure,
    imap_username: imap.username,
    imap_password_encrypted: imap.password === undefined ? undefined : sealSecret(imap.password),
    ...(mailboxChanged && { imap_last_uid: null, imap_last_polled_at: null }),
  };
}

/** An OAuth inbox signs in with its tokens: a username or password for it would never be used. */
function assertNoPasswords(current: Inbox, input: UpdateInboxInput) {
  if (current.auth_type !== "oauth2") return;
  const given = [
    ...(input.smtp?.username !== undefined ? ["smtp.username"] : []),
    ...(input.smtp?.password !== undefined ? ["smtp.password"] : []),
    ...(input.imap && input.imap.username !== undefined ? ["imap.username"] : []),
    ...(input.imap && input.imap.password !== undefined ? ["imap.password"] : []),
  ];
  if (given.length > 0) {
    throw new AppError(
      "VALIDATION_ERROR",
      "An OAuth inbox signs in with its provider's tokens: reconnect it instead of giving a username or password",
      given.map((path) => ({ path, message: "is not used by an OAuth inbox" })),
    );
  }
}

/** The inbox as the update would leave its servers, for the connection test before anything is written. */
function candidate(current: Inbox, data: Prisma.InboxUncheckedUpdateInput): CandidateInbox {
  const pick = <K extends keyof CandidateInbox>(key: K): CandidateInbox[K] =>
    (data[key as keyof typeof data] === undefined ? current[key] : data[key as keyof typeof data]) as CandidateInbox[K];
  return {
    id: current.id,
    organization_id: current.organization_id,
    from_email: pick("from_email"),
    auth_type: current.auth_type,
    smtp_host: pick("smtp_host"),
    smtp_port: pick("smtp_port"),
    smtp_secure: pick("smtp_secure"),
    smtp_username: pick("smtp_username"),
    smtp_password_encrypted: pick("smtp_password_encrypted"),
    imap_host: pick("imap_host"),
    imap_port: pick("imap_port"),
    imap_secure: pick("imap_secure"),
    imap_username: pick("imap_username"),
    imap_password_encrypted: pick("imap_password_encrypted"),
  };
}

export async function updateInbox(
  ctx: OrgContext,
  id: string,
  input: UpdateInboxInput,
  policy = defaultOutboundPolicy(),
  testConnection = env.inboxConnectionTest,
) {
  const current = await findInbox(ctx, id);
  assertNoPasswords(current, input);
  const { smtp, imap } = input;
  // The server as it will be: a new port on the old host is as much a new destination as a new host.
  const smtpChanged = smtp?.host !== undefined || smtp?.port !== undefined;
  const imapChanged = imap?.host !== undefined || imap?.port !== undefined;
  await assertReachable(
    [
      { path: "smtp.host", server: smtpChanged ? { host: smtp?.host ?? current.smtp_host, port: smtp?.port ?? current.smtp_port } : null },
      {
        path: "imap.host",
        server:
          imapChanged && (imap?.host ?? current.imap_host) ? { host: (imap?.host ?? current.imap_host)!, port: imap?.port ?? current.imap_port ?? 993 } : null,
      },
    ],
    policy,
  );
  const connectionChanged = smtp !== undefined || input.imap !== undefined;
  const data: Prisma.InboxUncheckedUpdateInput = {
    name: input.name,
    from_email: input.from_email,
    from_name: input.from_name,
    reply_to: input.reply_to,
    daily_limit: input.daily_limit,
    paused: input.paused,
    // A person pausing says so; resuming clears the reason, and the bounce-rate breaker counts
    // only the attempts from here on (breakers.ts).
    ...(input.paused === true && !current.paused && { paused_reason: "manual" as const, paused_at: new Date() }),
    ...(input.paused === false && current.paused && { paused_reason: null, paused_at: null, breaker_since: new Date() }),
    smtp_host: smtp?.host,
    smtp_port: smtp?.port,
    smtp_secure: smtp?.secure,
    smtp_username: smtp?.username,
    smtp_password_encrypted: sealed(smtp?.password),
    ...imapChanges(current, input.imap),
    // New connection settings deserve a fresh try; the old error described the old settings.
    ...(connectionChanged && healthy),
    ...(senderChanged(current, input) && noSenderProof),
  };
  if (connectionChanged && testConnection) await testInboxConnection(candidate(current, data), policy);
  // What the bounce-rate breaker paused, only an admin or owner resumes; judged in the statement
  // itself, so a breaker that trips meanwhile is not undone by a member's request either.
  const guarded = input.paused === false && !canManageMembers(ctx);
  const byPerson = { OR: [{ paused: false }, { paused_reason: null }, { paused_reason: "manual" as const }] };
  const { count } = await db.inbox.updateMany({ where: { id, organization_id: ctx.organizationId, ...(guarded && byPerson) }, data });
  if (count === 0) {
    if (guarded && (await db.inbox.count({ where: { id, organization_id: ctx.organizationId } })) > 0) {
      throw overridingSafetyNeedsAdmin("Resuming an inbox the bounce-rate breaker paused");
    }
    throw notFound("Inbox");
  }
  await recordAudit(ctx, { action: "inbox.updated", target: { type: "inbox", id }, details: { connection_changed: connectionChanged } });
  return getInbox(ctx, id);
}

/** Deletes the inbox and clears it from broadcasts and threads, which reference it without a foreign key. */
export async function deleteInbox(ctx: OrgContext, id: string) {
  const organizationId = ctx.organizationId;
  await db.$transaction(async (tx) => {
    const { count } = await tx.inbox.deleteMany({ where: { id, organization_id: organizationId } });
    if (count === 0) throw notFound("Inbox");
    await tx.broadcast.updateMany({ where: { organization_id: organizationId, inbox_id: id }, data: { inbox_id: null } });
    await tx.$executeRaw`
      UPDATE broadcasts SET inbox_ids = array_remove(inbox_ids, ${id}::uuid), updated_at = now()
      WHERE organization_id = ${organizationId}::uuid AND ${id}::uuid = ANY (inbox_ids)`;
    await tx.thread.updateMany({ where: { organization_id: organizationId, inbox_id: id }, data: { inbox_id: null } });
    await recordAudit(ctx, { action: "inbox.deleted", target: { type: "inbox", id } }, tx);
  });
  return { success: true };
}

/**
 * Signs in to the inbox's servers again (POST /v1/inboxes/{id}/test): on success an inbox in
 * `error` is healthy again and rotation and polling take it back; otherwise 400
 * INBOX_CONNECTION_FAILED in the servers' words, and the inbox stays as it was.
 */
export async function testInbox(ctx: OrgContext, id: string, policy = defaultOutboundPolicy()) {
  const current = await findInbox(ctx, id);
  await testInboxConnection(current, policy);
  await db.inbox.updateMany({ where: { id, organization_id: ctx.organizationId }, data: healthy });
  return getInbox(ctx, id);
}
