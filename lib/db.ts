import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";

// One client per process; Next's dev server reloads modules, so it is kept on globalThis.
const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient };

function createClient(): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: env.databaseUrl, max: 10 }) });
}

export const db: PrismaClient = globalForPrisma.prisma ?? createClient();
if (!env.isProduction) globalForPrisma.prisma = db;

export type Db = PrismaClient;
export { Prisma } from "@/lib/generated/prisma/client";
