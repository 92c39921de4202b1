import type pg from "pg";
import { env } from "@/lib/env";
import { createPool } from "./connections";

// The process's main pool: Prisma's adapter runs on it (lib/db.ts), and so does plain pg for what
// Prisma cannot express (COPY streams, server-side cursors, SKIP LOCKED claims). connectionTimeoutMillis:
// a request fails (503) rather than waits forever for a database that does not answer.
const globalForPool = globalThis as unknown as { pgPool?: pg.Pool };

export const pool: pg.Pool = globalForPool.pgPool ?? createPool("main", { max: 10, connectionTimeoutMillis: 10_000 });
if (!env.isProduction) globalForPool.pgPool = pool;
