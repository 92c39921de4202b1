import nodemailer, { type Transporter } from "nodemailer";
import type SMTPPool from "nodemailer/lib/smtp-pool";
import { openSecret } from "@/lib/crypto/secret-box";

export type InboxSmtp = {
  id: string;
  smtp_host: string;
  smtp_port: number;
  smtp_secure: boolean;
  smtp_username: string | null;
  smtp_password_encrypted: string | null;
  updated_at: Date;
};

/** Connections kept open per SMTP server: enough to pipeline an instant broadcast, few enough to be polite. */
const MAX_CONNECTIONS = 5;

const pooled: SMTPPool.Options = {
  pool: true,
  maxConnections: MAX_CONNECTIONS,
  maxMessages: 1000,
  connectionTimeout: 30_000,
  greetingTimeout: 30_000,
  socketTimeout: 60_000,
};

/**
 * One pooled SMTP transport per inbox (rebuilt when the inbox's settings change) and one for the
 * relay, so consecutive emails reuse open connections.
 */
export class Transports {
  private readonly byKey = new Map<string, Transporter>();

  constructor(private readonly relayUrl: string | undefined) {}

  get hasRelay(): boolean {
    return this.relayUrl !== undefined;
  }

  forInbox(inbox: InboxSmtp): Transporter {
    const key = `inbox:${inbox.id}`;
    const version = `${inbox.updated_at.getTime()}`;
    const existing = this.byKey.get(key) as (Transporter & { version?: string }) | undefined;
    if (existing?.version === version) return existing;
    existing?.close();
    const transport = nodemailer.createTransport({
      ...pooled,
      host: inbox.smtp_host,
      port: inbox.smtp_port,
      secure: inbox.smtp_secure,
      auth: inbox.smtp_username
        ? { user: inbox.smtp_username, pass: inbox.smtp_password_encrypted ? openSecret(inbox.smtp_password_encrypted) : "" }
        : undefined,
    }) as Transporter & { version?: string };
    transport.version = version;
    this.byKey.set(key, transport);
    return transport;
  }

  relay(): Transporter {
    if (!this.relayUrl) throw Object.assign(new Error("No SMTP relay is configured (SMTP_RELAY_URL or SMTP_URL)"), { code: "ENORELAY" });
    let transport = this.byKey.get("relay");
    if (!transport) {
      const url = new URL(this.relayUrl);
      url.searchParams.set("pool", "true");
      url.searchParams.set("maxConnections", String(MAX_CONNECTIONS));
      transport = nodemailer.createTransport(url.toString());
      this.byKey.set("relay", transport);
    }
    return transport;
  }

  close(): void {
    for (const transport of this.byKey.values()) transport.close();
    this.byKey.clear();
  }
}
