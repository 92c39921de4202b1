import { PrismaPg } from "@prisma/adapter-pg";
import { pool } from "@/lib/db/pool";
import { type Prisma, PrismaClient } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";
import { errorField, log } from "@/lib/log";

// One client per process; Next's dev server reloads modules, so it is kept on globalThis.
const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient };

// A connection the database drops is replaced on next use; its error event must not end the process.
const onLost = (error: Error) => log.warn({ err: errorField(error) }, "db: database connection lost");

// Prisma and the raw queries (COPY, cursors, SKIP LOCKED) share one pool (lib/db/pool.ts): one
// limit on the process's connections, one place that sets their timeouts.
function createClient(): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg(pool, { onConnectionError: onLost }) });
}

export const db: PrismaClient = globalForPrisma.prisma ?? createClient();
if (!env.isProduction) globalForPrisma.prisma = db;

export type Db = PrismaClient;
/** The plain client or the one of a transaction in progress. */
export type DbClient = Db | Prisma.TransactionClient;
export { Prisma } from "@/lib/generated/prisma/client";
