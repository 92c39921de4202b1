import { PrismaPg } from "@prisma/adapter-pg";
import type pg from "pg";
import { createPool } from "@/lib/db/connections";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { errorField, log } from "@/lib/log";

/**
 * The sending engine's own connections. Claims, preparation and outcome recording never wait for
 * a connection behind a fan-out's long transactions, a sequence dispatch or a webhook round in the
 * same process; and the lease heartbeat has a connection of its own, so a busy engine still
 * renews what it holds.
 */
const globalForEngine = globalThis as unknown as { engineDb?: PrismaClient; leasePool?: pg.Pool; recordPool?: pg.Pool; claimPool?: pg.Pool };

const ENGINE_CONNECTIONS = 8;

/** A dropped connection is reported by the query that used it. */
const onLost = (error: Error) => log.warn({ err: errorField(error) }, "engine: database connection lost");

export function engineDb(): PrismaClient {
  globalForEngine.engineDb ??= new PrismaClient({
    adapter: new PrismaPg(createPool("engine", { max: ENGINE_CONNECTIONS, connectionTimeoutMillis: 10_000 }), {
      onConnectionError: onLost,
      // Its pool is made outside the adapter (lib/db): closeEngineDb ends it with the client.
      disposeExternalPool: true,
    }),
  });
  return globalForEngine.engineDb;
}

/**
 * One connection for lease renewal and release. Short timeouts: a heartbeat that cannot reach
 * the database within seconds counts as a failed one (see leases.ts), it does not hang.
 */
export function leasePool(): pg.Pool {
  globalForEngine.leasePool ??= createPool("engine lease", { max: 1, connectionTimeoutMillis: 3_000, query_timeout: 5_000 });
  return globalForEngine.leasePool;
}

/** Plain pg for the recorder's one-statement writes of sent emails (record-sent.ts), the engine's most frequent write. */
export function recordPool(): pg.Pool {
  globalForEngine.recordPool ??= createPool("engine record", { max: 3, connectionTimeoutMillis: 5_000, query_timeout: 60_000 });
  return globalForEngine.recordPool;
}

/**
 * Plain pg for the claim and the release of windowed emails (claim.ts, windows.ts), whose
 * statements are named (prepared.ts): each connection parses and plans each of them once, not at
 * every claim. Two: a worker claims one batch at a time, and asks what is due beside it.
 *
 * Its sessions' settings hold for every statement on them, not per transaction: a plan is cached
 * with the settings it was made under. Bitmap scans off (why: claim.ts). Generic plans always:
 * planning was most of the claim's cost, and with the default (auto) PostgreSQL kept planning
 * each run of the claim's two main statements for its values, finding the generic plan's
 * estimate dearer. Measured under load 10 on two cores, medians of 25 runs against a
 * 20 000-email broadcast: what-is-due 18.6 ms unnamed, 14.4 named with auto, 1.3 generic; the
 * relay's claim of 50 11.8, 10.9, 1.8. The generic plans of the claim's statements are the ones
 * the tests measure (stopped-broadcast-claims.test.ts, inbox-queue.test.ts: emailRowsRead).
 */
export function claimPool(): pg.Pool {
  globalForEngine.claimPool ??= createPool("engine claim", {
    max: 2,
    connectionTimeoutMillis: 10_000,
    query_timeout: 30_000,
    options: "-c enable_bitmapscan=off -c plan_cache_mode=force_generic_plan",
  });
  return globalForEngine.claimPool;
}

export async function closeEngineDb(): Promise<void> {
  const { engineDb: client, leasePool: lease, recordPool: record, claimPool: claim } = globalForEngine;
  globalForEngine.engineDb = undefined;
  globalForEngine.leasePool = undefined;
  globalForEngine.recordPool = undefined;
  globalForEngine.claimPool = undefined;
  await Promise.all([client?.$disconnect(), lease?.end(), record?.end(), claim?.end()]);
}
