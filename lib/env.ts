import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { parseAllowedEndpoint } from "@/lib/net/host";

// The one place that reads process.env. Everything else imports `env`.
const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default(".data"),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default("Mailplatform <no-reply@localhost>"),
  APP_URL: z.string().url().optional(),
  AUTH_SECRET: z.string().min(16).optional(),
  DNS_RESOLVER: z.string().optional(),
  CHROMIUM_PATH: z.string().optional(),
  SMTP_RELAY_URL: z.string().url().optional(),
  SMTP_RELAY_CONNECTIONS: z.coerce.number().int().min(1).max(500).default(5),
  WORKER_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  AUTOMATIONS_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(500),
  EMAIL_BODY_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(0),
  EVENT_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(0),
  TRACKING_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(0),
  RATE_LIMIT_PER_SECOND: z.coerce.number().min(0).default(50),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  TEST_SENDS_PER_HOUR: z.coerce.number().int().min(0).max(100_000).default(50),
  WEBHOOK_MANUAL_DELIVERIES_PER_HOUR: z.coerce.number().int().min(0).max(100_000).default(60),
  WEBHOOK_MANUAL_DELIVERIES_PER_ORGANIZATION_PER_HOUR: z.coerce.number().int().min(0).max(1_000_000).default(300),
  SPAMASSASSIN_PATH: z.string().default("spamassassin"),
  SPAMASSASSIN_CHECKS_PER_ORGANIZATION: z.coerce.number().int().min(1).max(100).default(2),
  INVITATIONS_PER_DAY: z.coerce.number().int().min(1).default(50),
  INVITATION_RESENDS_PER_DAY: z.coerce.number().int().min(0).default(3),
  INVITATIONS_PER_USER_PER_DAY: z.coerce.number().int().min(1).default(50),
  ORGANIZATIONS_PER_USER: z.coerce.number().int().min(1).default(10),
  PASSWORD_RESETS_PER_HOUR: z.coerce.number().int().min(1).default(5),
  PASSWORD_RESETS_PER_CLIENT_PER_HOUR: z.coerce.number().int().min(1).default(20),
  FORM_SUBMISSIONS_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  RATE_LIMIT_ORGANIZATION_PER_SECOND: z.coerce.number().min(0).default(100),
  RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: z.coerce.number().min(0).default(30),
  // How many proxies in front of the app append to X-Forwarded-For; 0 (or false): the header is not believed.
  TRUST_PROXY: z
    .string()
    .default("0")
    .transform((value) => (value === "true" ? 1 : value === "false" ? 0 : Number(value)))
    .pipe(z.number().int().min(0).max(20)),
  // Set by `npm run bench` only: serves the framework's bare baseline route.
  ALLOWED_PRIVATE_HOSTS: z
    .string()
    .default("")
    .transform((value) =>
      value
        .split(",")
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .refine((entries) => entries.every((entry) => parseAllowedEndpoint(entry) !== null), "each entry must be host:port or host:* ([v6]:port for IPv6)"),
  INBOUND_SMTP_PORT: z.coerce.number().int().min(0).max(65535).default(2525),
  INBOUND_SMTP_HOST: z.string().optional(),
  INBOUND_SMTP_LISTEN: z.string().default("0.0.0.0"),
  INBOUND_CONNECTIONS_PER_CLIENT: z.coerce.number().int().min(0).max(500).default(10),
  INBOUND_REPORTS_PER_CLIENT_PER_SECOND: z.coerce.number().min(0).default(100),
  INBOUND_REPORTS_PER_TOKEN_PER_HOUR: z.coerce.number().min(0).default(10),
  SUBMISSION_SMTP_PORT: z.coerce.number().int().min(0).max(65535).default(2587),
  SUBMISSION_SMTP_LISTEN: z.string().default("0.0.0.0"),
  SUBMISSION_TLS_CERT: z.string().optional(),
  SUBMISSION_TLS_KEY: z.string().optional(),
  SUBMISSION_ALLOW_INSECURE_AUTH: z.enum(["true", "false"]).default("false"),
  SUBMISSION_CONNECTIONS_PER_CLIENT: z.coerce.number().int().min(0).max(200).default(10),
  RELAY_SPF: z.string().optional(),
  IMAP_POLL_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  IMAP_POLL_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(8),
  IMAP_ORGANIZATION_POLLS: z.coerce.number().int().min(1).max(16).default(2),
  IMAP_POLL_DEADLINE_SECONDS: z.coerce.number().int().min(1).max(3600).default(45),
  IMAP_COMMAND_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(15),
  IMAP_MESSAGE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(16_384)
    .max(64 * 1024 * 1024)
    .default(256 * 1024),
  IMAP_POLL_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(16_384)
    .max(1024 * 1024 * 1024)
    .default(16 * 1024 * 1024),
  OAUTH_GOOGLE_CLIENT_ID: z.string().trim().min(1).optional(),
  OAUTH_GOOGLE_CLIENT_SECRET: z.string().trim().min(1).optional(),
  OAUTH_GOOGLE_ISSUER: z.url({ protocol: /^https?$/ }).default("https://accounts.google.com"),
  OAUTH_MICROSOFT_CLIENT_ID: z.string().trim().min(1).optional(),
  OAUTH_MICROSOFT_CLIENT_SECRET: z.string().trim().min(1).optional(),
  OAUTH_MICROSOFT_ISSUER: z.url({ protocol: /^https?$/ }).default("https://login.microsoftonline.com/common/v2.0"),
  INBOX_CONNECTION_TEST: z.enum(["on", "off"]).default("on"),
  INBOX_FAILURES_BEFORE_ERROR: z.coerce.number().int().min(1).max(1000).default(5),
  MEDIA_MAX_BYTES_PER_ORGANIZATION: z.coerce
    .number()
    .int()
    .min(0)
    .default(500 * 1024 * 1024),
  MEDIA_S3_BUCKET: z.string().min(1).optional(),
  MEDIA_S3_ENDPOINT: z.string().url().optional(),
  MEDIA_S3_REGION: z.string().default("us-east-1"),
  MEDIA_S3_ACCESS_KEY_ID: z.string().optional(),
  MEDIA_S3_SECRET_ACCESS_KEY: z.string().optional(),
  MEDIA_S3_FORCE_PATH_STYLE: z.enum(["true", "false"]).optional(),
  RETURN_PATH_LABEL: z
    .string()
    .regex(/^(?!-)[a-z0-9-]{1,63}(?<!-)$/i, "must be one DNS label, e.g. bounces")
    .default("bounces"),
});

const parsed = schema.safeParse(process.env);
if (!parsed.success) {
  throw new Error(`Invalid environment: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
}
const raw = parsed.data;

const dataDir = path.resolve(/* turbopackIgnore: true */ process.cwd(), raw.DATA_DIR);

// Without AUTH_SECRET a random one is kept under the data directory, so sessions and API keys
// survive restarts on a developer's machine without any setup.
function persistedSecret(): string {
  const file = path.join(dataDir, "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  try {
    writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
    return secret;
  } catch {
    // Another process wrote it first; its secret is the one everybody uses.
    return readFileSync(file, "utf8").trim();
  }
}

let cachedSecret: string | undefined;

/** `ip4:`/`ip6:` for a relay given by address, `a:` for one given by name; nothing without a relay. */
function relaySpfFromUrl(url: string | undefined): string {
  if (!url) return "";
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return `ip4:${host}`;
  if (host.includes(":")) return `ip6:${host}`;
  return `a:${host}`;
}

export const env = {
  nodeEnv: raw.NODE_ENV,
  isProduction: raw.NODE_ENV === "production",
  port: raw.PORT,
  dataDir,
  embeddedPgPort: raw.EMBEDDED_PG_PORT,
  /** True when no DATABASE_URL is given and the embedded cluster under dataDir is used. */
  usesEmbeddedDatabase: raw.DATABASE_URL === undefined,
  databaseUrl: raw.DATABASE_URL ?? `postgresql://postgres:postgres@127.0.0.1:${raw.EMBEDDED_PG_PORT}/mailplatform`,
  smtpUrl: raw.SMTP_URL,
  mailFrom: raw.MAIL_FROM,
  appUrl: (raw.APP_URL ?? `http://localhost:${raw.PORT}`).replace(/\/$/, ""),
  dnsResolver: raw.DNS_RESOLVER,
  chromiumPath: raw.CHROMIUM_PATH,
  /** Sustained requests per second per API key or signed-in user (bursts of twice that); 0 turns the limit off. */
  rateLimitPerSecond: raw.RATE_LIMIT_PER_SECOND,
  /** The lowest level the structured log (lib/log.ts) writes. */
  logLevel: raw.LOG_LEVEL,
  /** Sustained requests per second per organization, all its keys and users together (bursts of twice that); 0: off. */
  rateLimitOrganizationPerSecond: raw.RATE_LIMIT_ORGANIZATION_PER_SECOND,
  /** Failed authentications per client address per minute (as a burst, refilled evenly over the minute); 0: off. */
  rateLimitAuthFailuresPerMinute: raw.RATE_LIMIT_AUTH_FAILURES_PER_MINUTE,
  /** Proxies in front of the app whose X-Forwarded-For entries are believed; 0: the connection's address is the client's. */
  trustProxy: raw.TRUST_PROXY,
  /** The organizations' default relay for broadcasts and emails without an inbox; SMTP_URL when unset. */
  smtpRelayUrl: raw.SMTP_RELAY_URL ?? raw.SMTP_URL,
  /**
   * Connections each worker keeps open to the relay. Also the most emails a worker killed mid-send
   * repeats through it: one per connection (lib/sending/smtp-pool.ts).
   */
  smtpRelayConnections: raw.SMTP_RELAY_CONNECTIONS,
  /** How long a worker owns a claimed email before another may take it over (crash recovery). */
  workerLeaseSeconds: raw.WORKER_LEASE_SECONDS,
  /** Automation runs one round of the engine takes (lib/automations/engine.ts), in one transaction. */
  automationsBatchSize: raw.AUTOMATIONS_BATCH_SIZE,
  /** Retention (lib/retention), in days after a row was written; 0 keeps for ever. Emails' HTML and text. */
  emailBodyRetentionDays: raw.EMAIL_BODY_RETENTION_DAYS,
  /** Events other than opens and clicks. */
  eventRetentionDays: raw.EVENT_RETENTION_DAYS,
  /** Opens and clicks: their events (counted on into the reports' rollups) and the visitors kept on their emails. */
  trackingRetentionDays: raw.TRACKING_RETENTION_DAYS,
  /** Test emails (each address counts) an organization may send per clock hour, across every web process. */
  testSendsPerHour: raw.TEST_SENDS_PER_HOUR,
  /** Test events and replays (POST /v1/webhooks/{id}/test, …/replay) one webhook may be sent per clock hour, across every web process. */
  webhookManualDeliveriesPerHour: raw.WEBHOOK_MANUAL_DELIVERIES_PER_HOUR,
  /** The same for all the webhooks of one organization together. */
  webhookManualDeliveriesPerOrganizationPerHour: raw.WEBHOOK_MANUAL_DELIVERIES_PER_ORGANIZATION_PER_HOUR,
  /** The SpamAssassin program of the pre-send spam check; the check says so when it is not installed. */
  spamassassinPath: raw.SPAMASSASSIN_PATH,
  /** Spam checks one organization may have running or waiting in a web process; more are answered "busy" at once. */
  spamassassinChecksPerOrganization: raw.SPAMASSASSIN_CHECKS_PER_ORGANIZATION,
  /** Invitation emails (new ones and resends) one organization may send in 24 hours. */
  invitationsPerDay: raw.INVITATIONS_PER_DAY,
  /** Resends of one invitation in 24 hours. */
  invitationResendsPerDay: raw.INVITATION_RESENDS_PER_DAY,
  /** Invitation emails one user may send in 24 hours, across all their organizations. */
  invitationsPerUserPerDay: raw.INVITATIONS_PER_USER_PER_DAY,
  /** Organizations one user may create (the one made at sign-up included). */
  organizationsPerUser: raw.ORGANIZATIONS_PER_USER,
  /** "Forgot password?" requests for one address in an hour (a burst of this many, refilled over the hour). */
  passwordResetsPerHour: raw.PASSWORD_RESETS_PER_HOUR,
  /** "Forgot password?" requests from one client address in an hour, whatever addresses they name. */
  passwordResetsPerClientPerHour: raw.PASSWORD_RESETS_PER_CLIENT_PER_HOUR,
  /** Submissions of public forms from one client address in a minute (a burst of this many, refilled over the minute). */
  formSubmissionsPerMinute: raw.FORM_SUBMISSIONS_PER_MINUTE,
  /**
   * Private endpoints tenants' inboxes and webhooks may reach although the outbound address policy
   * refuses private addresses (`host:port`, or `host:*` for every port of a host); empty by default.
   */
  allowedPrivateHosts: raw.ALLOWED_PRIVATE_HOSTS,
  /** Port of the listener that receives delivery reports and complaints; 0: no listener. */
  inboundSmtpPort: raw.INBOUND_SMTP_PORT,
  /** Address the listener binds to. */
  inboundSmtpListen: raw.INBOUND_SMTP_LISTEN,
  /** Open connections to the listener per client (an IPv4 address or an IPv6 /64); 0: no cap. */
  inboundConnectionsPerClient: raw.INBOUND_CONNECTIONS_PER_CLIENT,
  /** Reports per second one client may deliver to the listener (bursts of ten seconds' worth); 0: no limit. */
  inboundReportsPerClientPerSecond: raw.INBOUND_REPORTS_PER_CLIENT_PER_SECOND,
  /** Reports per hour to one return-path token, i.e. about one email (a burst of as many); 0: no limit. */
  inboundReportsPerTokenPerHour: raw.INBOUND_REPORTS_PER_TOKEN_PER_HOUR,
  /** Port of the SMTP submission listener for applications (AUTH with an API key); 0: no listener. */
  submissionSmtpPort: raw.SUBMISSION_SMTP_PORT,
  /** Address the submission listener binds to. */
  submissionSmtpListen: raw.SUBMISSION_SMTP_LISTEN,
  /** PEM files of the submission listener's certificate and key: STARTTLS is offered with both. */
  submissionTlsCert: raw.SUBMISSION_TLS_CERT,
  submissionTlsKey: raw.SUBMISSION_TLS_KEY,
  /** Plain AUTH without TLS from hosts other than this one (never by default: the API key would cross the network in clear). */
  submissionAllowInsecureAuth: raw.SUBMISSION_ALLOW_INSECURE_AUTH === "true",
  /** Open connections to the submission listener per client; 0: no cap. */
  submissionConnectionsPerClient: raw.SUBMISSION_CONNECTIONS_PER_CLIENT,
  /** The host the return-path MX records name: where receiving systems send their reports. */
  inboundSmtpHost: (raw.INBOUND_SMTP_HOST ?? new URL(raw.APP_URL ?? `http://localhost:${raw.PORT}`).hostname).toLowerCase().replace(/\.$/, ""),
  /**
   * SPF mechanisms that authorize the relay (`include:relay.example`, `ip4:192.0.2.10`, …), published
   * at each domain's return path. Unset: derived from the relay's host.
   */
  relaySpf: raw.RELAY_SPF?.trim() || relaySpfFromUrl(raw.SMTP_RELAY_URL ?? raw.SMTP_URL),
  /** Reply polling (lib/replies, docs/SECURITY.md "IMAP reply polling"): each inbox is polled at most this often. */
  imapPollIntervalSeconds: raw.IMAP_POLL_INTERVAL_SECONDS,
  /** Inboxes one worker process polls at once (at most IMAP_ORGANIZATION_POLLS per organization across all workers). */
  imapPollConcurrency: raw.IMAP_POLL_CONCURRENCY,
  /** Polls of one organization's inboxes at once across all workers; past the first, only lanes no other organization is waiting for. */
  imapOrganizationPolls: raw.IMAP_ORGANIZATION_POLLS,
  /** The whole of one inbox's poll, from resolving its host to logging out. */
  imapPollDeadlineSeconds: raw.IMAP_POLL_DEADLINE_SECONDS,
  /** Connecting (TCP, TLS, greeting, login) and each IMAP command after it. */
  imapCommandTimeoutSeconds: raw.IMAP_COMMAND_TIMEOUT_SECONDS,
  /** Bytes read of one message: its first this many (headers, the reply's text, a report's machine-readable parts). */
  imapMessageMaxBytes: raw.IMAP_MESSAGE_MAX_BYTES,
  /** Bytes read from one IMAP server in one poll; the next poll continues where this one stopped. */
  imapPollMaxBytes: raw.IMAP_POLL_MAX_BYTES,
  /**
   * Mailbox authorization (lib/oauth): each provider is offered once its client id and secret are
   * set; its endpoints come from the issuer's discovery document.
   */
  oauthProviders: {
    google: { clientId: raw.OAUTH_GOOGLE_CLIENT_ID, clientSecret: raw.OAUTH_GOOGLE_CLIENT_SECRET, issuer: raw.OAUTH_GOOGLE_ISSUER },
    microsoft: { clientId: raw.OAUTH_MICROSOFT_CLIENT_ID, clientSecret: raw.OAUTH_MICROSOFT_CLIENT_SECRET, issuer: raw.OAUTH_MICROSOFT_ISSUER },
  },
  /**
   * Whether saving an inbox signs in to its servers first (400 INBOX_CONNECTION_FAILED when they refuse).
   * `off` only where no mail server can be reached: offline development, and the test suite's inboxes at example hosts.
   */
  inboxConnectionTest: raw.INBOX_CONNECTION_TEST === "on",
  /** Failed connections in a row (sending or polling) after which an inbox turns `error` and rotation skips it. */
  inboxFailuresBeforeError: raw.INBOX_FAILURES_BEFORE_ERROR,
  /** Bytes of images one organization may keep in its media library; 0: no limit. */
  mediaMaxBytesPerOrganization: raw.MEDIA_MAX_BYTES_PER_ORGANIZATION,
  /** S3-compatible storage for uploaded images; unset: files under `<DATA_DIR>/media`. */
  mediaS3: raw.MEDIA_S3_BUCKET
    ? {
        bucket: raw.MEDIA_S3_BUCKET,
        endpoint: raw.MEDIA_S3_ENDPOINT,
        region: raw.MEDIA_S3_REGION,
        // MinIO and most S3-compatible servers want the bucket in the path; AWS itself takes either.
        forcePathStyle: raw.MEDIA_S3_FORCE_PATH_STYLE ? raw.MEDIA_S3_FORCE_PATH_STYLE === "true" : Boolean(raw.MEDIA_S3_ENDPOINT),
        credentials:
          raw.MEDIA_S3_ACCESS_KEY_ID && raw.MEDIA_S3_SECRET_ACCESS_KEY
            ? { accessKeyId: raw.MEDIA_S3_ACCESS_KEY_ID, secretAccessKey: raw.MEDIA_S3_SECRET_ACCESS_KEY }
            : undefined,
      }
    : null,
  /** Default label of a new domain's return-path subdomain (`bounces` → bounces.example.com). */
  returnPathLabel: raw.RETURN_PATH_LABEL.toLowerCase(),
  get authSecret(): string {
    cachedSecret ??= raw.AUTH_SECRET ?? persistedSecret();
    return cachedSecret;
  },
};

// next-auth reads these two from the process environment itself.
process.env.NEXTAUTH_URL ??= env.appUrl;
process.env.NEXTAUTH_URL_INTERNAL ??= `http://127.0.0.1:${env.port}`;
