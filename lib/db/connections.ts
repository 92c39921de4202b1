import pg from "pg";
import { env } from "@/lib/env";
import { errorField, log } from "@/lib/log";

// Every connection a process opens to PostgreSQL is made here (ESLint keeps `new pg.Pool`,
// `new pg.Client` and PrismaPg out of the other rooms): one file to read for how many connections a
// process holds and with which timeouts (the README's "connections per process" reads it).

/** How a pool is sized and timed, and its sessions' settings (`options`: `-c name=value`): pg's own options, without the address (always the process's). */
type PoolSizing = Pick<pg.PoolConfig, "max" | "connectionTimeoutMillis" | "query_timeout" | "idleTimeoutMillis" | "allowExitOnIdle" | "options">;

/**
 * A pool of its own for `purpose` (named in the log of a lost connection): an idle connection the
 * database drops (a restart) must not end the process, the pool replaces it, and the query that
 * used a dropped one reports it. `connectionString`: another thread's copy of the address (the
 * relay's thread gets it from its parent), the process's own otherwise.
 */
export function createPool(purpose: string, sizing: PoolSizing, connectionString = env.databaseUrl): pg.Pool {
  const created = new pg.Pool({ connectionString, ...sizing });
  created.on("error", (error) => log.warn({ err: errorField(error), pool: purpose }, "db: idle database connection lost"));
  return created;
}

/** A connection of its own, outside every pool, for `LISTEN` (lib/sending/stop-signals.ts): a pool would hand it back. */
export const createListenClient = () => new pg.Client({ connectionString: env.databaseUrl, connectionTimeoutMillis: 5_000 });
