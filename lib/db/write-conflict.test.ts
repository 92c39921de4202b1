import { describe, expect, it } from "vitest";
import { errorResponse } from "@/lib/api/errors";
import { db } from "@/lib/db";
import { pool } from "@/lib/db/pool";
import { isWriteConflict, retryOnWriteConflict } from "./write-conflict";

/** Two rows for two transactions to lock in opposite orders. */
async function deadlockTable() {
  await pool.query("CREATE TABLE IF NOT EXISTS test_deadlock (id int PRIMARY KEY, n int NOT NULL DEFAULT 0)");
  await pool.query("INSERT INTO test_deadlock (id) VALUES (1), (2) ON CONFLICT DO NOTHING");
}

/** Two transactions that lock two rows in opposite orders: PostgreSQL ends one with 40P01. */
async function realDeadlock(): Promise<unknown> {
  await deadlockTable();
  const [a, b] = [await pool.connect(), await pool.connect()];
  try {
    await a.query("BEGIN");
    await b.query("BEGIN");
    await a.query("UPDATE test_deadlock SET n = n + 1 WHERE id = 1");
    await b.query("UPDATE test_deadlock SET n = n + 1 WHERE id = 2");
    const results = await Promise.allSettled([
      a.query("UPDATE test_deadlock SET n = n + 1 WHERE id = 2"),
      b.query("UPDATE test_deadlock SET n = n + 1 WHERE id = 1"),
    ]);
    return results.find((r) => r.status === "rejected")?.reason;
  } finally {
    await a.query("ROLLBACK");
    await b.query("ROLLBACK");
    a.release();
    b.release();
  }
}

/** The same through Prisma: two interactive transactions whose raw updates meet in opposite orders. */
async function prismaDeadlock(): Promise<unknown> {
  await deadlockTable();
  let bothHoldOne!: () => void;
  const held = new Promise<void>((resolve) => (bothHoldOne = resolve));
  let holding = 0;
  const crossing = (first: number, second: number) =>
    db.$transaction(async (tx) => {
      await tx.$executeRaw`UPDATE test_deadlock SET n = n + 1 WHERE id = ${first}`;
      if (++holding === 2) bothHoldOne();
      await held;
      await tx.$executeRaw`UPDATE test_deadlock SET n = n + 1 WHERE id = ${second}`;
    });
  const results = await Promise.allSettled([crossing(1, 2), crossing(2, 1)]);
  return results.find((r) => r.status === "rejected")?.reason;
}

describe("a transaction that loses a deadlock", () => {
  it("is recognised in the shape Prisma gives a raw query's deadlock (P2010, the code in the driver's cause)", { timeout: 30_000 }, async () => {
    const viaPrisma = await prismaDeadlock();
    expect((viaPrisma as { code?: string }).code).toBe("P2010");
    expect(isWriteConflict(viaPrisma)).toBe(true);
    expect(errorResponse(viaPrisma).status).toBe(503);
  });

  it("is recognised, through pg and through Prisma, and is run again rather than answered with a 500", { timeout: 30_000 }, async () => {
    const viaPg = await realDeadlock();
    expect((viaPg as { code?: string }).code).toBe("40P01");
    expect(isWriteConflict(viaPg)).toBe(true);

    // The same through Prisma: a raw deadlock inside an interactive transaction.
    let calls = 0;
    const result = await retryOnWriteConflict(async () => {
      calls++;
      if (calls === 1) throw await realDeadlock();
      return db.$transaction(async (tx) => tx.$queryRaw<{ n: number }[]>`SELECT 1::int AS n`);
    });
    expect(calls).toBe(2);
    expect(result).toEqual([{ n: 1 }]);

    // Still losing after the retries: 503 with Retry-After, the request was sound.
    const response = errorResponse(viaPg);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(isWriteConflict(new Error("something else"))).toBe(false);
  });
});
