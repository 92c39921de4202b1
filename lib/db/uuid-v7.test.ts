import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { pool } from "@/lib/db/pool";

// The body used where the server has no uuidv7() (before PostgreSQL 18), taken from the file the
// migration was written from, so both branches are checked whichever server runs the tests.
const fallback = /\$body\$([\s\S]*?)\$body\$/.exec(readFileSync("prisma/sql/uuid_v7.sql", "utf8"))![1];

async function draw(expression: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const { rows } = await pool.query<{ id: string }>(`SELECT (${expression})::text AS id`);
    ids.push(rows[0].id);
    if (i % 10 === 9) await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return ids;
}

describe("uuid_v7()", () => {
  it.each([
    ["the function the migrations create", "SELECT uuid_v7()"],
    ["the fallback for servers before PostgreSQL 18", fallback],
  ])("%s: version 7, RFC variant, the current time in the first 48 bits, ordered across milliseconds", async (_name, expression) => {
    const before = Date.now();
    const ids = await draw(expression, 30);
    const after = Date.now();
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const ms = parseInt(id.replace(/-/g, "").slice(0, 12), 16);
      expect(ms).toBeGreaterThanOrEqual(before - 5);
      expect(ms).toBeLessThanOrEqual(after + 5);
    }
    // Ids drawn in different milliseconds sort by time (within one millisecond the rest is random).
    const first = ids.slice(0, 10).sort().at(-1)!;
    const last = ids.slice(20).sort()[0];
    expect(first < last).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
