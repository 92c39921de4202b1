import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { RelayRecorder } from "./relay-recorder";

const pool = new pg.Pool({ connectionString: env.databaseUrl, max: 4 });
afterAll(() => pool.end());

describe("the relay thread's marks of accepted emails", () => {
  it("never waits for a claim the recorder holds (it is being recorded): the others are marked, nothing fails", async () => {
    const [recording, accepted] = [randomUUID(), randomUUID()];
    const lockedUntil = new Date(Date.now() + 60_000);
    await db.emailClaim.createMany({ data: [recording, accepted].map((email_id) => ({ email_id, locked_until: lockedUntil })) });
    // The main thread's recorder, mid-statement: it holds the claim it is about to delete with the email's record.
    const recorder = await pool.connect();
    const failures: unknown[] = [];
    const reported: string[] = [];
    const marks = new RelayRecorder(
      pool,
      (error) => failures.push(error),
      (ids) => reported.push(...ids),
    );
    try {
      await recorder.query("BEGIN");
      await recorder.query("SELECT 1 FROM email_claims WHERE email_id = $1 FOR UPDATE", [recording]);
      const at = new Date().toISOString();
      const written = [recording, accepted].map((id) => marks.accepted({ id, at, response: "250 2.0.0 Ok", dsn: true }).written);
      // Before SKIP LOCKED the held claim's mark waited for the recorder's commit (a deadlock when the
      // recorder then wanted a claim that a mark of several held).
      await Promise.all(written);
      const claims = await db.emailClaim.findMany({ where: { email_id: { in: [recording, accepted] } } });
      expect(claims.find((c) => c.email_id === accepted)).toMatchObject({ accepted_response: "250 2.0.0 Ok", accepted_at: expect.any(Date) });
      expect(claims.find((c) => c.email_id === recording)).toMatchObject({ accepted_at: null });
      expect(failures).toEqual([]);
      // Only the claim marked is reported: the held one's email is still one a crash would send again (recorder.ts).
      expect(reported).toEqual([accepted]);
    } finally {
      await recorder.query("ROLLBACK");
      recorder.release();
      marks.close();
      await db.emailClaim.deleteMany({ where: { email_id: { in: [recording, accepted] } } });
    }
  });
});
