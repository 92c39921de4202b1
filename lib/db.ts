import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";
import { errorField, log } from "@/lib/log";

// One client per process; Next's dev server reloads modules, so it is kept on globalThis.
const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient };

// A connection the database drops while idle (a restart, an outage) is replaced on next use; its
// error event must not end the process. connectionTimeoutMillis: a request fails (503) rather than
// waits forever for a database that does not answer.
const onLost = (error: Error) => log.warn({ err: errorField(error) }, "db: database connection lost");

function createClient(): PrismaClient {
  return new PrismaClient({
    adapter: new PrismaPg({ connectionString: env.databaseUrl, max: 10, connectionTimeoutMillis: 10_000 }, { onPoolError: onLost, onConnectionError: onLost }),
  });
}

export const db: PrismaClient = globalForPrisma.prisma ?? createClient();
if (!env.isProduction) globalForPrisma.prisma = db;

export type Db = PrismaClient;
export { Prisma } from "@/lib/generated/prisma/client";
