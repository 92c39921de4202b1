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

/**
 * Rows of `emails` a statement read: what each scan of the table answered and what its filter
 * removed (both per loop in EXPLAIN). Bitmap scans off, as in the claim's transaction; sequential
 * scans off too, so that a small test table is read through the indexes as a large one is. The
 * statement runs in a transaction rolled back afterwards: what it writes is not kept.
 */
export async function emailRowsRead(client: PrismaClient, statement: Prisma.Sql): Promise<number> {
  try {
    await client.$transaction(async (tx) => {
      await tx.$executeRaw`SET LOCAL enable_bitmapscan = off`;
      await tx.$executeRaw`SET LOCAL enable_seqscan = off`;
      const [row] = await tx.$queryRaw<{ "QUERY PLAN": [{ Plan: PlanNode }] }[]>(Prisma.sql`EXPLAIN (ANALYZE, FORMAT JSON) ${statement}`);
      throw new Measured(
        nodes(row["QUERY PLAN"][0].Plan)
          .filter((node) => node["Relation Name"] === "emails")
          .reduce((sum, node) => sum + node["Actual Loops"] * (node["Actual Rows"] + (node["Rows Removed by Filter"] ?? 0)), 0),
      );
    });
  } catch (error) {
    if (error instanceof Measured) return error.rows;
    throw error;
  }
  throw new Error("unreachable");
}
