import { createHash } from "node:crypto";
import type pg from "pg";
import type { Prisma } from "@/lib/db";
import { claimPool } from "./engine-db";

// The claim's statements are long (the skips through the queue indexes, each range of each queue,
// written out), and the engine runs them several times a second: sent unnamed, as Prisma sends
// every statement, PostgreSQL parsed and planned each of them at every claim, which cost several
// times what running them did. Named, each connection prepares a statement once, and runs it with
// one generic plan (the claim's pool forces them: engine-db.ts); the tests of the claim measure
// those plans (lib/testing/rows-read.ts).

const names = new Map<string, string>();

/** Its name: the hash of its text, so that each shape of a statement (with or without a clause) is a statement of its own. */
function nameOf(text: string): string {
  let name = names.get(text);
  if (!name) names.set(text, (name = `engine-${createHash("sha1").update(text).digest("base64url").slice(0, 24)}`));
  return name;
}

/** A statement built with `Prisma.sql` as a named statement of plain pg. */
function named(statement: Prisma.Sql): pg.QueryConfig {
  return { name: nameOf(statement.text), text: statement.text, values: statement.values };
}

/** Runs a statement as a named one; answers its rows. */
export async function queryNamed<T extends pg.QueryResultRow>(client: pg.Pool | pg.PoolClient, statement: Prisma.Sql): Promise<T[]> {
  const { rows } = await client.query<T>(named(statement));
  return rows;
}

/** Runs a statement as a named one; answers how many rows it wrote. */
export async function executeNamed(client: pg.Pool | pg.PoolClient, statement: Prisma.Sql): Promise<number> {
  const { rowCount } = await client.query(named(statement));
  return rowCount ?? 0;
}

/**
 * `work` in one transaction on a connection of the claim's pool. If anything fails the connection
 * is closed, which rolls the transaction back: a statement that timed out on this side may still
 * be running on it, and a ROLLBACK sent behind it would wait for it.
 */
export async function inClaimTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await claimPool().connect();
  try {
    await client.query("BEGIN");
    const answer = await work(client);
    await client.query("COMMIT");
    client.release();
    return answer;
  } catch (error) {
    client.release(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
}
