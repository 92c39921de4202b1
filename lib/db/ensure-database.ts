import pg from "pg";
import { env } from "@/lib/env";
import { ensureEmbeddedCluster } from "./embedded";
import { migrate } from "./migrate";
import { explainConnectionError, StartupError } from "./startup-error";

async function canConnect(connectionString: string): Promise<boolean> {
  const client = new pg.Client({ connectionString });
  try {
    await client.connect();
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === "3D000") return false; // the database does not exist
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Creates the database named in `connectionString` on its server when it does not exist yet. The
 * target is tried first, so a role that may enter its own database but not `postgres` needs nothing
 * more; creating goes through the `postgres` database.
 */
export async function createDatabaseIfMissing(connectionString: string): Promise<void> {
  if (await canConnect(connectionString)) return;
  const name = decodeURIComponent(new URL(connectionString).pathname.replace(/^\//, ""));
  const admin = new URL(connectionString);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`).catch((error: { code?: string }) => {
      if (error.code !== "42P04") throw error; // created by a concurrent process
    });
  } finally {
    await client.end();
  }
}

/**
 * What every entry point (dev server, production server, worker, CLI, tests) calls first: the
 * embedded cluster is started when no DATABASE_URL is set, the database is created when missing
 * (and the role may), and the schema is migrated. A failure to reach or enter the server becomes a
 * StartupError saying what to do.
 */
export async function ensureDatabase(connectionString = env.databaseUrl): Promise<string> {
  const source = env.usesEmbeddedDatabase ? `the embedded PostgreSQL under ${env.dataDir}` : "DATABASE_URL";
  try {
    if (env.usesEmbeddedDatabase) await ensureEmbeddedCluster({ dataDir: env.dataDir, port: env.embeddedPgPort });
    await createDatabaseIfMissing(connectionString);
    await migrate(connectionString);
  } catch (error) {
    if (error instanceof StartupError) throw error;
    const explained = explainConnectionError(error, connectionString, source);
    if (explained) throw new StartupError(explained);
    throw error;
  }
  return connectionString;
}
