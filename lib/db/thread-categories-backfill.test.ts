import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { migrate, readMigrations } from "./migrate";

const admin = process.env.TEST_ADMIN_DATABASE_URL!;
const name = `mp_backfill_${process.pid}`;

async function onAdmin(sql: string) {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(sql);
  await client.end();
}

afterAll(() => onAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));

describe("the thread_categories migration", () => {
  it("puts answered threads in the unified inbox: needs_reply after a real reply, out_of_office when every answer was automatic", async () => {
    await onAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await onAdmin(`CREATE DATABASE ${name}`);
    const url = new URL(admin);
    url.pathname = `/${name}`;
    const all = readMigrations();
    const at = all.findIndex((m) => m.name.endsWith("_thread_categories"));
    expect(at).toBeGreaterThan(0);
    await migrate(url.toString(), all.slice(0, at));

    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      const q = async (sql: string, values: unknown[] = []) => (await client.query(sql, values)).rows;
      const [{ id: org }] = await q(`INSERT INTO organizations (name) VALUES ('Acme') RETURNING id`);
      const thread = async (subject: string) => (await q(`INSERT INTO threads (organization_id, subject) VALUES ($1, $2) RETURNING id`, [org, subject]))[0].id;
      const email = (threadId: string, direction: string, repliedAt: Date | null) =>
        q(
          `INSERT INTO emails (organization_id, thread_id, direction, message_id, from_email, to_email, subject, replied_at)
           VALUES ($1, $2, $3::"EmailDirection", gen_random_uuid()::text, 'a@x.test', 'b@y.test', 's', $4)`,
          [org, threadId, direction, repliedAt],
        );
      const replied = await thread("replied");
      await email(replied, "outbound", new Date());
      await email(replied, "inbound", null);
      // sales_day_windows keeps an out-of-office answer in the thread without setting replied_at.
      const away = await thread("away");
      await email(away, "outbound", null);
      await email(away, "inbound", null);
      const unanswered = await thread("unanswered");
      await email(unanswered, "outbound", null);

      await migrate(url.toString(), all.slice(0, at + 1));
      const rows = await q(`SELECT subject, category::text FROM threads ORDER BY subject`);
      expect(rows).toEqual([
        { subject: "away", category: "out_of_office" },
        { subject: "replied", category: "needs_reply" },
        { subject: "unanswered", category: null },
      ]);
    } finally {
      await client.end();
    }
  });
});
