import pg from "pg";
import { env } from "@/lib/env";
import { errorField, log } from "@/lib/log";

// The process's one pool: Prisma's adapter runs on it (lib/db.ts), and so does plain pg for what
// Prisma cannot express (COPY streams, server-side cursors, SKIP LOCKED claims). connectionTimeoutMillis:
// a request fails (503) rather than waits forever for a database that does not answer.
const globalForPool = globalThis as unknown as { pgPool?: pg.Pool };

function createPool(): pg.Pool {
  const created = new pg.Pool({ connectionString: env.databaseUrl, max: 10, connectionTimeoutMillis: 10_000 });
  // An idle connection the database drops (a restart) must not end the process: the pool replaces it.
  created.on("error", (error) => log.warn({ err: errorField(error) }, "db: database connection lost"));
  return created;
}

export const pool: pg.Pool = globalForPool.pgPool ?? createPool();
if (!env.isProduction) globalForPool.pgPool = pool;
