import pg from "pg";
import { env } from "@/lib/env";
import { ensureEmbeddedCluster } from "./embedded";
import { migrate } from "./migrate";

/** Creates the database named in `connectionString` on its server when it does not exist yet. */
export async function createDatabaseIfMissing(connectionString: string): Promise<void> {
  const url = new URL(connectionString);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ""));
  const admin = new URL(connectionString);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (!rowCount) {
      await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`).catch((error: { code?: string }) => {
        if (error.code !== "42P04") throw error; // created by a concurrent process
      });
    }
  } finally {
    await client.end();
  }
}

/**
 * What every entry point (dev server, production server, worker, CLI, tests) calls first: the
 * embedded cluster is started when no DATABASE_URL is set, and the schema is migrated either way.
 */
export async function ensureDatabase(connectionString = env.databaseUrl): Promise<string> {
  if (env.usesEmbeddedDatabase) {
    await ensureEmbeddedCluster({ dataDir: env.dataDir, port: env.embeddedPgPort });
    await createDatabaseIfMissing(connectionString);
  }
  await migrate(connectionString);
  return connectionString;
}
