import { z } from "zod";
import { InboxPauseReason, InboxStatus, OAuthProvider } from "@/lib/generated/prisma/enums";
import { isHostOrIp } from "@/lib/dns/hostname";
import { dateTime, emailAddress, id, limits, requiredText, text } from "./common";

// The empty string already fails the minimum length; one message per problem.
const host = requiredText(253).refine((value) => value === "" || isHostOrIp(value), "must be a host name or an IP address");
const port = z.number().int().min(1).max(65535);
const username = requiredText(limits.email);
const password = requiredText(limits.shortText).meta({ description: "Stored encrypted; never returned." });
const dailyLimit = z.number().int().min(1).max(10_000).meta({ description: "Emails this inbox may send per day." });

const smtpInput = z.object({
  host,
  port,
  secure: z.boolean().meta({ description: "true: TLS from the start (port 465); false: STARTTLS when offered." }),
  username: username.nullable().optional(),
  password: password.nullable().optional(),
});

const imapInput = z.object({ host, port, secure: z.boolean(), username, password });

export const createInboxInput = z.object({
  name: requiredText(limits.name),
  from_email: emailAddress,
  from_name: text(limits.name).nullable().optional(),
  reply_to: emailAddress.nullable().optional(),
  daily_limit: dailyLimit.optional(),
  smtp: smtpInput,
  imap: imapInput.nullable().optional().meta({ description: "Where replies are read from; without it replies are not detected." }),
});
export type CreateInboxInput = z.infer<typeof createInboxInput>;

/** Partial: fields not given are kept; a password given replaces the stored one; `imap: null` removes IMAP. */
export const updateInboxInput = z.object({
  name: requiredText(limits.name).optional(),
  from_email: emailAddress.optional(),
  from_name: text(limits.name).nullable().optional(),
  reply_to: emailAddress.nullable().optional(),
  daily_limit: dailyLimit.optional(),
  paused: z.boolean().optional().meta({ description: "A paused inbox sends nothing." }),
  smtp: smtpInput.partial().optional(),
  imap: imapInput.partial().nullable().optional(),
});
export type UpdateInboxInput = z.infer<typeof updateInboxInput>;

const connection = z.object({
  host: z.string(),
  port: z.number(),
  secure: z.boolean(),
  username: z.string().nullable(),
  has_password: z.boolean(),
});
connection.register(z.globalRegistry, { id: "InboxServer" });

const auth = z
  .discriminatedUnion("type", [z.object({ type: z.literal("password") }), z.object({ type: z.literal("oauth2"), provider: z.enum(OAuthProvider) })])
  .meta({
    description:
      "How it signs in: `password` (the servers' usernames and passwords) or `oauth2` (XOAUTH2, connected in the dashboard; the refresh " +
      "token is stored sealed, never returned).",
  });

const verification = z
  .object({
    status: z.enum(["verified", "pending", "unverified"]).meta({
      description:
        "`verified`: the inbox may send. `pending`: a confirmation link was mailed and has not been used yet. " +
        "`unverified`: it sends nothing until its from address is proven.",
    }),
    method: z.enum(["domain", "confirmation"]).nullable().meta({
      description: "`domain`: the from address is at a verified domain of the organization. `confirmation`: the link mailed to it was followed.",
    }),
    confirmed_at: dateTime.nullable(),
    confirmation_sent_at: dateTime.nullable(),
    confirmation_expires_at: dateTime.nullable(),
  })
  .meta({
    description:
      "Proof of the from address. Changing the from address or the SMTP server makes the inbox unverified again, unless its address is at a verified domain.",
  });

export const inbox = z.object({
  id,
  organization_id: id,
  name: z.string(),
  from_email: z.string(),
  from_name: z.string().nullable(),
  reply_to: z.string().nullable(),
  daily_limit: z.number(),
  paused: z.boolean(),
  paused_reason: z.enum(InboxPauseReason).nullable().meta({
    description:
      "Extension: `manual` (a person) or `bounce_rate` (its recent hard bounces passed the organization's threshold; skipped until a person sets `paused: false`); null unless paused.",
  }),
  paused_at: dateTime.nullable().meta({ description: "Extension: when it was paused, if known; null unless paused." }),
  last_error: z
    .string()
    .nullable()
    .meta({
      description:
        "The last sending or polling error, if any: the server's answer to the envelope or message, or a generic reason (could not connect, authentication failed, TLS failed). " +
        'A polling error starts with "Reading replies failed: ".',
    }),
  auth,
  status: z.enum(InboxStatus).meta({
    description:
      "`error`: its authentication or connection kept failing while sending or polling (or its OAuth grant was refused); rotation and reply polling skip it " +
      "until POST /v1/inboxes/{id}/test succeeds, it is reconnected, or its servers are changed. `active` otherwise.",
  }),
  failed_at: dateTime.nullable().meta({ description: "When it turned `error`; null while active." }),
  verification,
  smtp: connection,
  imap: connection.nullable(),
  created_at: dateTime,
  updated_at: dateTime,
});
inbox.register(z.globalRegistry, { id: "Inbox" });

/** GET /api/inboxes/oauth/{provider}/start: the new inbox's name and daily limit, or the inbox to reconnect. */
export const oauthStartQuery = z.object({
  name: requiredText(limits.name).optional(),
  daily_limit: z.coerce.number().pipe(dailyLimit).optional(),
  inbox_id: id.optional().meta({ description: "Reconnect: the OAuth inbox whose grant the consent replaces." }),
});
export type OAuthStartQuery = z.infer<typeof oauthStartQuery>;

/** What following a sender-confirmation link did; the confirmation page shows it. */
export type ConfirmOutcome = { state: "confirmed"; address: string } | { state: "expired" | "invalid" };
