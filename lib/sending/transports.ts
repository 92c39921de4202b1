import net from "node:net";
import nodemailer, { type Transporter } from "nodemailer";
import type SMTPPool from "nodemailer/lib/smtp-pool";
import { openSecret } from "@/lib/crypto/secret-box";
import { checkedAddress, defaultOutboundPolicy, type OutboundPolicy } from "@/lib/net/outbound-policy";
import type { MessageWithDsn } from "@/lib/feedback/outgoing";
import { inboxAccessToken } from "@/lib/oauth/access-token";
import { pooled, relayTransportOptions, type SentInfo } from "./relay-options";

/**
 * What the engine needs of the relay: nodemailer's pool, or the relay in its thread
 * (relay-in-thread.ts), which also marks an accepted email so on its claim when given its id.
 */
export type MailSender = {
  sendMail: (message: MessageWithDsn, emailId?: string) => Promise<SentInfo>;
  close: () => void;
  /** Readies it before the first message (the relay's thread starts). */
  start?: () => void;
};

export type InboxSmtp = {
  id: string;
  organization_id: string;
  from_email: string;
  auth_type: "password" | "oauth2";
  smtp_host: string;
  smtp_port: number;
  smtp_secure: boolean;
  smtp_username: string | null;
  smtp_password_encrypted: string | null;
};

/**
 * A tenant's server: the host is resolved and checked against the outbound address policy right
 * before connecting, and the socket goes to the address that passed, so a name that resolved to a
 * public address when saved cannot lead to a private one now (DNS rebinding). nodemailer then
 * speaks SMTP over it and, for implicit TLS, upgrades it itself, verifying the certificate against
 * the host name.
 */
function checkedSocket(policy: OutboundPolicy): SMTPPool.Options["getSocket"] {
  return (options, callback) => {
    const port = options.port ?? (options.secure ? 465 : 587);
    checkedAddress(options.host ?? "", port, policy).then(
      ({ address }) => callback(null, { connection: net.connect({ host: address, port, noDelay: true }) }),
      (error: Error) => callback(error, undefined as never),
    );
  };
}

export type TransportOptions = {
  /** Where inboxes' servers may be; the operator's policy (ALLOWED_PRIVATE_HOSTS) when not given. */
  policy?: OutboundPolicy;
  /** Connection and greeting timeouts of inboxes' servers (30 s). */
  connectTimeoutMs?: number;
  /** How the relay is driven; by default a nodemailer pool on this thread. */
  relay?: (relayUrl: string) => MailSender;
};

/**
 * XOAUTH2 with the inbox's access token (lib/oauth). nodemailer asks for a token when it connects
 * and, when the server refuses one, once more with `renew`: that one is renewed whatever its
 * expiry, and a refusal of the renewed token fails the send (classified as an authentication failure).
 */
function oauthAuth(inbox: InboxSmtp) {
  let last: string | undefined;
  // nodemailer keeps a token for its connection's one login (expiry 0: no expiry of its own to track).
  const provisionCallback = (_user: string, renew: boolean, callback: (error: Error | null, token: string, expires: number) => void) => {
    inboxAccessToken(inbox, { rejected: renew ? last : undefined }).then(
      (token) => callback(null, (last = token), 0),
      (error: Error) => callback(error, "", 0),
    );
  };
  return { type: "OAuth2" as const, user: inbox.smtp_username ?? inbox.from_email, provisionCallback };
}

/** The transport options of an inbox's SMTP server, whatever sends through it (the worker, a confirmation). */
export function inboxTransportOptions(inbox: InboxSmtp, options: TransportOptions = {}) {
  const timeout = options.connectTimeoutMs ?? pooled.connectionTimeout;
  const password = inbox.smtp_username
    ? { user: inbox.smtp_username, pass: inbox.smtp_password_encrypted ? openSecret(inbox.smtp_password_encrypted) : "" }
    : undefined;
  return {
    host: inbox.smtp_host,
    port: inbox.smtp_port,
    secure: inbox.smtp_secure,
    auth: inbox.auth_type === "oauth2" ? oauthAuth(inbox) : password,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    getSocket: checkedSocket(options.policy ?? defaultOutboundPolicy()),
  } satisfies Partial<SMTPPool.Options>;
}

/** The relay through nodemailer's pool on this thread: it records nothing itself. */
function nodemailerRelay(relayUrl: string): MailSender {
  const transport = nodemailer.createTransport(relayTransportOptions(relayUrl));
  return { sendMail: (message) => transport.sendMail(message), close: () => transport.close() };
}

/**
 * One pooled SMTP transport per inbox (rebuilt when the inbox's settings change) and one for the
 * relay, so consecutive emails reuse open connections. The relay is the operator's and is not
 * checked; every inbox connection passes the outbound address policy.
 */
export class Transports {
  private readonly byKey = new Map<string, Transporter>();
  private relaySender: MailSender | null = null;

  constructor(
    private readonly relayUrl: string | undefined,
    private readonly options: TransportOptions = {},
  ) {}

  get hasRelay(): boolean {
    return this.relayUrl !== undefined;
  }

  forInbox(inbox: InboxSmtp): Transporter {
    const key = `inbox:${inbox.id}`;
    // New SMTP settings mean a new pool; anything else about the inbox keeps the open connections.
    const version = JSON.stringify([inbox.auth_type, inbox.smtp_host, inbox.smtp_port, inbox.smtp_secure, inbox.smtp_username, inbox.smtp_password_encrypted]);
    const existing = this.byKey.get(key) as (Transporter & { version?: string }) | undefined;
    if (existing?.version === version) return existing;
    existing?.close();
    const transport = nodemailer.createTransport({ ...pooled, ...inboxTransportOptions(inbox, this.options) }) as Transporter & { version?: string };
    transport.version = version;
    this.byKey.set(key, transport);
    return transport;
  }

  relay(): MailSender {
    if (!this.relayUrl) throw Object.assign(new Error("No SMTP relay is configured (SMTP_RELAY_URL or SMTP_URL)"), { code: "ENORELAY" });
    this.relaySender ??= this.options.relay?.(this.relayUrl) ?? nodemailerRelay(this.relayUrl);
    return this.relaySender;
  }

  /** Readies the relay (when there is one) ahead of its first email. */
  startRelay(): void {
    if (this.relayUrl) this.relay().start?.();
  }

  close(): void {
    for (const transport of this.byKey.values()) transport.close();
    this.byKey.clear();
    this.relaySender?.close();
    this.relaySender = null;
  }
}
