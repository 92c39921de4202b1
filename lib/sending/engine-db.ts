import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";

/**
 * The sending engine's own connections. Claims, preparation and outcome recording never wait for
 * a connection behind a fan-out's long transactions, a sequence dispatch or a webhook round in the
 * same process; and the lease heartbeat has a connection of its own, so a busy engine still
 * renews what it holds.
 */
const globalForEngine = globalThis as unknown as { engineDb?: PrismaClient; leasePool?: pg.Pool };

const ENGINE_CONNECTIONS = 8;

/** A dropped connection is reported by the query that used it; an idle one's error must not end the process. */
const ignoreIdleErrors = (error: Error) => console.warn(`[engine] idle database connection lost: ${error.message}`);

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

export async function closeEngineDb(): Promise<void> {
  const { engineDb: client, leasePool: pool } = globalForEngine;
  globalForEngine.engineDb = undefined;
  globalForEngine.leasePool = undefined;
  await Promise.all([client?.$disconnect(), pool?.end()]);
}
