import { Prisma } from "@/lib/db";
import type { PrismaClient } from "@/lib/generated/prisma/client";

type PlanNode = {
  "Relation Name"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
};

const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

/** Thrown to roll back what a statement under EXPLAIN ANALYZE wrote (a claim's locks and rows). */
class Measured extends Error {
  constructor(readonly rows: number) {
    super("measured");
  }
}

const rowsOfEmails = (plan: PlanNode) =>
  nodes(plan)
    .filter((node) => node["Relation Name"] === "emails")
    .reduce((sum, node) => sum + node["Actual Loops"] * (node["Actual Rows"] + (node["Rows Removed by Filter"] ?? 0)), 0);

/** A value bound to a statement, as a literal of EXECUTE's arguments (its type is the prepared statement's). */
function literal(value: unknown): string {
  const quoted = (text: string) => `'${text.replace(/'/g, "''")}'`;
  const element = (item: unknown): string =>
    item === null || item === undefined ? "NULL" : `"${(item instanceof Date ? item.toISOString() : String(item)).replace(/[\\"]/g, "\\$&")}"`;
  if (value === null || value === undefined) return "NULL";
  if (Array.isArray(value)) return quoted(`{${value.map(element).join(",")}}`);
  return quoted(value instanceof Date ? value.toISOString() : String(value));
}

let prepared = 0;

/**
 * Rows of `emails` a statement read: what each scan of the table answered and what its filter
 * removed (both per loop in EXPLAIN). Bitmap scans off, as on the claim's connections; sequential
 * scans off too, so that a small test table is read through the indexes as a large one is. The
 * statement runs in a transaction rolled back afterwards: what it writes is not kept.
 *
 * `plan`: "custom", planned for its values, as an unnamed statement is; "generic", prepared and
 * planned once for any values, as the engine's named statements may be (lib/sending/prepared.ts):
 * PostgreSQL chooses such a plan after a few runs when it looks no costlier, and a generic plan
 * that reads past a stopped broadcast's emails must fail the test as a custom one does.
 */
async function emailRowsRead(client: PrismaClient, statement: Prisma.Sql, plan: "custom" | "generic" = "custom"): Promise<number> {
  try {
    await client.$transaction(async (tx) => {
      await tx.$executeRaw`SET LOCAL enable_bitmapscan = off`;
      await tx.$executeRaw`SET LOCAL enable_seqscan = off`;
      let explained: Prisma.Sql = Prisma.sql`EXPLAIN (ANALYZE, FORMAT JSON) ${statement}`;
      let name: string | null = null;
      if (plan === "generic") {
        await tx.$executeRaw`SET LOCAL plan_cache_mode = force_generic_plan`;
        name = `measured_${process.pid}_${++prepared}`;
        await tx.$executeRawUnsafe(`PREPARE ${name} AS ${statement.text}`);
        const args = statement.values.length > 0 ? `(${statement.values.map(literal).join(", ")})` : "";
        explained = Prisma.raw(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE ${name}${args}`);
      }
      const [row] = await tx.$queryRaw<{ "QUERY PLAN": [{ Plan: PlanNode }] }[]>(explained);
      // A prepared statement outlives the transaction: gone before the rollback.
      if (name) await tx.$executeRawUnsafe(`DEALLOCATE ${name}`);
      throw new Measured(rowsOfEmails(row["QUERY PLAN"][0].Plan));
    });
  } catch (error) {
    if (error instanceof Measured) return error.rows;
    throw error;
  }
  throw new Error("unreachable");
}

/** The most rows of `emails` a statement of the engine read, planned for its values or generically (emailRowsRead). */
export async function engineRowsRead(client: PrismaClient, statement: Prisma.Sql): Promise<number> {
  return Math.max(await emailRowsRead(client, statement, "custom"), await emailRowsRead(client, statement, "generic"));
}
