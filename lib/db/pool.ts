import pg from "pg";
import { env } from "@/lib/env";

// Plain pg for what Prisma cannot express: COPY streams, server-side cursors, SKIP LOCKED claims.
const globalForPool = globalThis as unknown as { pgPool?: pg.Pool };

export const pool: pg.Pool = globalForPool.pgPool ?? new pg.Pool({ connectionString: env.databaseUrl, max: 10 });
if (!env.isProduction) globalForPool.pgPool = pool;
