import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { migrate } from "@/lib/db/migrate";
import { PrismaClient } from "@/lib/generated/prisma/client";

export type IsolatedDatabase = { url: string; db: PrismaClient; drop: () => Promise<void> };

/**
 * A migrated database of its own, for tests that run whole worker processes: a worker claims
 * every due email of its database, so it must not share one with other test files.
 */
export async function createIsolatedDatabase(label: string): Promise<IsolatedDatabase> {
  const admin = process.env.TEST_ADMIN_DATABASE_URL;
  if (!admin) throw new Error("TEST_ADMIN_DATABASE_URL is set by the test setup");
  const name = `mp_${label.replace(/\W/g, "_")}_${process.pid}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  await migrate(url.toString());
  const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: url.toString(), max: 5 }) });
  return {
    url: url.toString(),
    db,
    drop: async () => {
      await db.$disconnect();
      await run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
