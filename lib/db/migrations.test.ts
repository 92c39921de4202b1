import { readFileSync } from "node:fs";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { migrate, readMigrations } from "./migrate";
import { diffDatamodels } from "./schema-diff";

const admin = process.env.TEST_ADMIN_DATABASE_URL!;
const created: string[] = [];

async function freshDatabase(label: string): Promise<string> {
  const name = `mp_catalog_${label}_${process.pid}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  created.push(name);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

async function catalog(connectionString: string) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const q = async (sql: string) => (await client.query(sql)).rows.map((row) => JSON.stringify(row));
    return {
      columns: await q(`SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default
        FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
        ORDER BY table_name, column_name`),
      indexes: await q(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'
        AND tablename <> '_prisma_migrations' ORDER BY indexname`),
      constraints: await q(`SELECT c.conrelid::regclass::text AS table_name, c.conname, pg_get_constraintdef(c.oid) AS def
        FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
        WHERE n.nspname = 'public' AND c.conrelid::regclass::text <> '_prisma_migrations' ORDER BY 1, 2`),
      enums: await q(`SELECT t.typname, array_agg(e.enumlabel ORDER BY e.enumsortorder) AS labels
        FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.typname ORDER BY t.typname`),
    };
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  for (const name of created) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await client.end();
});

describe("migrations", () => {
  it("build exactly the database that schema.prisma describes", async () => {
    const fromMigrations = await freshDatabase("migrations");
    const fromSchema = await freshDatabase("schema");
    await migrate(fromMigrations);
    const sql = await diffDatamodels(fromSchema, null, readFileSync("prisma/schema.prisma", "utf8"));
    const client = new pg.Client({ connectionString: fromSchema });
    await client.connect();
    // The function column defaults call, which schema.prisma cannot declare (a migration creates it).
    await client.query(readFileSync("prisma/sql/uuid_v7.sql", "utf8"));
    await client.query(sql);
    await client.end();

    const [a, b] = [await catalog(fromMigrations), await catalog(fromSchema)];
    expect(a.columns.length).toBeGreaterThan(100);
    expect(a).toEqual(b);
  });

  it("are applied once, recorded the way prisma migrate records them, and refuse edited history", async () => {
    const url = await freshDatabase("rerun");
    const all = readMigrations();
    expect(await migrate(url, all)).toEqual(all.map((m) => m.name));
    expect(await migrate(url, all)).toEqual([]);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query(`SELECT migration_name, checksum, applied_steps_count FROM "_prisma_migrations" WHERE finished_at IS NOT NULL`);
    await client.end();
    expect(rows).toEqual(all.map((m) => ({ migration_name: m.name, checksum: m.checksum, applied_steps_count: 1 })));
    const edited = all.map((m, i) => (i === 0 ? { ...m, checksum: "0".repeat(64) } : m));
    await expect(migrate(url, edited)).rejects.toThrow(/checksum mismatch/);
  });
});
