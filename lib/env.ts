import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

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
  WORKER_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  RATE_LIMIT_PER_SECOND: z.coerce.number().min(0).default(50),
  TEST_SENDS_PER_HOUR: z.coerce.number().int().min(0).max(100_000).default(50),
  SPAMASSASSIN_PATH: z.string().default("spamassassin"),
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
  /** Sustained requests per second per credential (bursts of twice that); 0 turns the limit off. */
  rateLimitPerSecond: raw.RATE_LIMIT_PER_SECOND,
  /** The organizations' default relay for broadcasts and emails without an inbox; SMTP_URL when unset. */
  smtpRelayUrl: raw.SMTP_RELAY_URL ?? raw.SMTP_URL,
  /** How long a worker owns a claimed email before another may take it over (crash recovery). */
  workerLeaseSeconds: raw.WORKER_LEASE_SECONDS,
  /** Test emails (each address counts) an organization may send per clock hour, across every web process. */
  testSendsPerHour: raw.TEST_SENDS_PER_HOUR,
  /** The SpamAssassin program of the pre-send spam check; the check says so when it is not installed. */
  spamassassinPath: raw.SPAMASSASSIN_PATH,
  get authSecret(): string {
    cachedSecret ??= raw.AUTH_SECRET ?? persistedSecret();
    return cachedSecret;
  },
};

// next-auth reads these two from the process environment itself.
process.env.NEXTAUTH_URL ??= env.appUrl;
process.env.NEXTAUTH_URL_INTERNAL ??= `http://127.0.0.1:${env.port}`;
