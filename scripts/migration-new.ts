// npm run db:migration -- <name>
// Writes prisma/migrations/<timestamp>_<name>/migration.sql with the SQL from the schema as it was
// at the last commit (or nothing, for the first migration) to prisma/schema.prisma as it is now.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ensureDatabase } from "@/lib/db/ensure-database";
import { exitOnStartupError } from "@/lib/db/startup-error";
import { migrationsDir } from "@/lib/db/migrate";
import { diffDatamodels } from "@/lib/db/schema-diff";

const name = (process.argv[2] ?? "").replace(/[^a-z0-9_]/gi, "_").toLowerCase();
if (!name) {
  console.error("usage: npm run db:migration -- <name>");
  process.exit(1);
}

const current = readFileSync("prisma/schema.prisma", "utf8");
const hasMigrations = readdirSync(migrationsDir, { withFileTypes: true }).some((e) => e.isDirectory());
let previous: string | null = null;
if (hasMigrations) {
  previous = execFileSync("git", ["show", "HEAD:prisma/schema.prisma"], { encoding: "utf8" });
}

const url = await ensureDatabase().catch(exitOnStartupError);
const sql = await diffDatamodels(url, previous, current);
if (!sql.trim() || /^-- This is an empty migration/.test(sql.trim())) {
  console.error("The schema has not changed since the last commit: no migration written.");
  process.exit(1);
}
const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
const dir = path.join(migrationsDir, `${stamp}_${name}`);
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, "migration.sql"), sql);
console.log(`wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
