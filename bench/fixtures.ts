import { copyInto, fixture, seconds, type Bench, type ProductOrg } from "./bench";
import { chunked, contactAt, stageLine } from "./data";

const EPOCH = Date.UTC(2025, 0, 1);

/**
 * The organization the lists, check-emails and the broadcast run against: `sizes.contacts`
 * contacts created 30 s apart over about a year (the newest is contact n-1), 5 % unsubscribed.
 * Seeded with COPY, then vacuumed and analyzed as autovacuum would have done by then.
 */
export const contactsOrg = (bench: Bench) =>
  fixture(bench, "contacts", async (): Promise<ProductOrg> => {
    const org = await bench.createOrg("contacts");
    const n = bench.sizes.contacts;
    bench.log(`seeding ${n.toLocaleString("en-US")} contacts`);
    const started = performance.now();
    const line = (i: number) => {
      const created = new Date(EPOCH + i * 30_000).toISOString();
      const unsubscribed = i % 20 === 7;
      return `${org.organizationId}\t${stageLine(contactAt(i)).slice(0, -1)}\t${unsubscribed ? "f" : "t"}\t${unsubscribed ? created : "\\N"}\t${created}\t${created}\n`;
    };
    await copyInto(
      bench.pg,
      "contacts",
      "organization_id, email, first_name, last_name, tags, metadata, subscribed, unsubscribed_at, created_at, updated_at",
      chunked(0, n, line),
    );
    await bench.pg.query("VACUUM ANALYZE contacts");
    bench.log(`  seeded in ${seconds(started).toFixed(1)} s`);
    return org;
  });

const HTML = `<html><body><h1>News of the week</h1><p>Hello {{first_name}},</p><p>${"Here is what happened this week. ".repeat(8)}</p><p><a href="https://bench.example/read">Read more</a></p></body></html>`;

/** The organization of the email list: `sizes.emails` sent emails, 30 s apart, seeded in one INSERT … SELECT. */
export const emailsOrg = (bench: Bench) =>
  fixture(bench, "emails", async (): Promise<ProductOrg> => {
    const org = await bench.createOrg("emails");
    const n = bench.sizes.emails;
    bench.log(`seeding ${n.toLocaleString("en-US")} emails`);
    const started = performance.now();
    await bench.pg.query(
      `INSERT INTO emails (organization_id, message_id, from_email, from_name, to_email, subject, html_content, text_content,
                           status, tags, sent_at, delivered_at, created_at, updated_at)
       SELECT $1::uuid, '<' || i || '.bench@bench.example>', 'news@bench.example', 'Bench News', 'contact' || i || '@example.com',
              'Newsletter #' || (i % 52), $2, $3, (CASE WHEN i % 10 = 0 THEN 'sent' ELSE 'delivered' END)::"EmailStatus",
              '{newsletter}', t, t + interval '2 seconds', t, t + interval '2 seconds'
       FROM generate_series(0, $4::int - 1) AS i, LATERAL (SELECT $5::timestamptz + i * interval '30 seconds' AS t) AS at`,
      [org.organizationId, HTML, "Hello, here is what happened this week.", n, new Date(EPOCH).toISOString()],
    );
    await bench.pg.query("VACUUM ANALYZE emails");
    bench.log(`  seeded in ${seconds(started).toFixed(1)} s`);
    return org;
  });
