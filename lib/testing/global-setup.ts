import path from "node:path";
import pg from "pg";
import { ensureEmbeddedCluster } from "@/lib/db/embedded";
import { migrate } from "@/lib/db/migrate";

// Tests run on a real PostgreSQL: the server of DATABASE_URL when it is set, otherwise an
// embedded cluster of their own under .data/test. Either way they get a fresh database.
export default async function setup() {
  const base = process.env.DATABASE_URL;
  let adminUrl: string;
  if (base) {
    const url = new URL(base);
    url.pathname = "/postgres";
    adminUrl = url.toString();
  } else {
    const port = Number(process.env.TEST_PG_PORT ?? 54339);
    await ensureEmbeddedCluster({ dataDir: path.resolve(".data/test"), port, portSetting: "TEST_PG_PORT" });
    adminUrl = `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`;
  }
  const name = `mailplatform_test_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();

  const testUrl = new URL(adminUrl);
  testUrl.pathname = `/${name}`;
  await migrate(testUrl.toString());

  process.env.DATABASE_URL = testUrl.toString();
  process.env.TEST_ADMIN_DATABASE_URL = adminUrl;
  process.env.AUTH_SECRET ??= "test-secret-for-the-test-suite-only";
  process.env.DATA_DIR ??= ".data/test";
  // Mail in tests is captured as files, or goes to a sink a test starts; never to a developer's relay.
  delete process.env.SMTP_URL;
  // The sinks tests point inboxes, relays and webhooks at listen on random ports of the loopback
  // interface, which the outbound address policy refuses in production: the suite admits loopback,
  // on every port, in the documented `host:*` form. Security tests hold the code to explicit strict
  // policies (lib/net/outbound-policy.ts: strictOutboundPolicy) instead.
  process.env.ALLOWED_PRIVATE_HOSTS ??= "127.0.0.1:*,[::1]:*";
  // Most tests' inboxes are at example hosts no test can reach; the connection test on save is
  // tested against loopback servers with it on (lib/oauth/oauth-mailboxes.test.ts).
  process.env.INBOX_CONNECTION_TEST ??= "off";
  // The fuzz test sends thousands of requests with one key; rate-limit.test.ts tests the limit itself.
  process.env.RATE_LIMIT_PER_SECOND ??= "100000";
  process.env.RATE_LIMIT_ORGANIZATION_PER_SECOND ??= "100000";
  // Tests answer thousands of 401s, all from one address; security/rate-limits.test.ts tests this limit.
  process.env.RATE_LIMIT_AUTH_FAILURES_PER_MINUTE ??= "1000000";

  return async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await client.end();
  };
}
