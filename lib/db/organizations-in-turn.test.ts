import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { organizationTurn } from "./organizations-in-turn";

// A queue of its own in a temporary table (the suite's other files share the real queues), served
// in rounds smaller than the number of organizations waiting.
describe("organizations served in turn", () => {
  it("serves every organization within a few rounds however many wait, and skips those with no work", async () => {
    const organizations = Array.from({ length: 7 }, () => randomUUID()).sort();
    const idle = organizations[3];
    await db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe("CREATE TEMP TABLE turn_queue (organization_id uuid NOT NULL, done boolean NOT NULL) ON COMMIT DROP");
      await tx.$executeRawUnsafe("CREATE INDEX ON turn_queue (organization_id)");
      // Each organization holds many rows (the skip-scan must not care); the idle one only done ones.
      await tx.$executeRaw`
        INSERT INTO turn_queue SELECT o.id, o.id = ${idle}::uuid FROM unnest(${organizations}::uuid[]) AS o(id), generate_series(1, 50)`;
      const turn = organizationTurn({ table: "turn_queue q", where: "NOT q.done" });
      const rounds: string[][] = [];
      for (let round = 0; round < 4; round++) rounds.push(await turn.next(tx, 3));

      const waiting = organizations.filter((id) => id !== idle);
      // Round after round, each goes on where the last stopped, wrapping to the start.
      expect(rounds).toEqual([waiting.slice(0, 3), waiting.slice(3, 6), waiting.slice(0, 3), waiting.slice(3, 6)]);
      expect(rounds.flat()).not.toContain(idle);
    });
  });

  it("goes on from the start within the round that reaches the end, in the turn's order", async () => {
    const organizations = Array.from({ length: 5 }, () => randomUUID()).sort();
    await db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe("CREATE TEMP TABLE turn_queue_wrap (organization_id uuid NOT NULL) ON COMMIT DROP");
      await tx.$executeRawUnsafe("CREATE INDEX ON turn_queue_wrap (organization_id)");
      await tx.$executeRaw`INSERT INTO turn_queue_wrap SELECT unnest(${organizations}::uuid[])`;
      const turn = organizationTurn({ table: "turn_queue_wrap q" });
      const [a, b, c, d, e] = organizations;
      expect(await turn.next(tx, 3)).toEqual([a, b, c]);
      // The end of the queue, then its start: the first served last comes after the ones that waited.
      expect(await turn.next(tx, 3)).toEqual([d, e, a]);
      expect(await turn.next(tx, 3)).toEqual([b, c, d]);
      // Asked inside another statement, the same round.
      const [{ ids }] = await tx.$queryRaw<{ ids: string[] }[]>`SELECT ARRAY(${turn.sql(3)}) AS ids`;
      expect(ids).toEqual([e, a, b]);
      turn.served(ids);
      expect(await turn.next(tx, 3)).toEqual([c, d, e]);
    });
  });

  it("answers nothing for an empty queue, and a round of all when they fit", async () => {
    const organizations = [randomUUID(), randomUUID()].sort();
    await db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe("CREATE TEMP TABLE turn_queue_small (organization_id uuid NOT NULL) ON COMMIT DROP");
      const turn = organizationTurn({ table: "turn_queue_small q" });
      expect(await turn.next(tx, 5)).toEqual([]);
      await tx.$executeRaw`INSERT INTO turn_queue_small SELECT unnest(${organizations}::uuid[])`;
      expect(await turn.next(tx, 5)).toEqual(organizations);
      // The next round starts after the last and wraps: the same two, in id order of the turn.
      expect(await turn.next(tx, 5)).toEqual(organizations);
    });
  });
});
