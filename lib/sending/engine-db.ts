import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";
import { errorField, log } from "@/lib/log";

/**
 * The sending engine's own connections. Claims, preparation and outcome recording never wait for
 * a connection behind a fan-out's long transactions, a sequence dispatch or a webhook round in the
 * same process; and the lease heartbeat has a connection of its own, so a busy engine still
 * renews what it holds.
 */
const globalForEngine = globalThis as unknown as { engineDb?: PrismaClient; leasePool?: pg.Pool; recordPool?: pg.Pool };

const ENGINE_CONNECTIONS = 8;

/** A dropped connection is reported by the query that used it; an idle one's error must not end the process. */
const ignoreIdleErrors = (error: Error) => log.warn({ err: errorField(error) }, "engine: idle database connection lost");

export function engineDb(): PrismaClient {
  globalForEngine.engineDb ??= new PrismaClient({
    adapter: new PrismaPg(
      { connectionString: env.databaseUrl, max: ENGINE_CONNECTIONS, connectionTimeoutMillis: 10_000 },
      { onPoolError: ignoreIdleErrors, onConnectionError: ignoreIdleErrors },
    ),
  });
  return globalForEngine.engineDb;
}

/**
 * One connection for lease renewal and release. Short timeouts: a heartbeat that cannot reach
 * the database within seconds counts as a failed one (see leases.ts), it does not hang.
 */
export function leasePool(): pg.Pool {
  if (!globalForEngine.leasePool) {
    const pool = new pg.Pool({ connectionString: env.databaseUrl, max: 1, connectionTimeoutMillis: 3_000, query_timeout: 5_000 });
    pool.on("error", ignoreIdleErrors);
    globalForEngine.leasePool = pool;
  }
  return globalForEngine.leasePool;
}

/** Plain pg for the recorder's one-statement writes of sent emails (record-sent.ts), the engine's most frequent write. */
export function recordPool(): pg.Pool {
  if (!globalForEngine.recordPool) {
    const pool = new pg.Pool({ connectionString: env.databaseUrl, max: 3, connectionTimeoutMillis: 5_000, query_timeout: 60_000 });
    pool.on("error", ignoreIdleErrors);
    globalForEngine.recordPool = pool;
  }
  return globalForEngine.recordPool;
}

export async function closeEngineDb(): Promise<void> {
  const { engineDb: client, leasePool: lease, recordPool: record } = globalForEngine;
  globalForEngine.engineDb = undefined;
  globalForEngine.leasePool = undefined;
  globalForEngine.recordPool = undefined;
  await Promise.all([client?.$disconnect(), lease?.end(), record?.end()]);
}
