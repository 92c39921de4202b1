import { filterCondition } from "@/lib/audience/membership";
import { db, Prisma } from "@/lib/db";
import type { Filter } from "@/lib/schemas/filters";
import { alternate, fixture, seconds, type Bench, type ProductOrg } from "../bench";
import { contactsOrg } from "../fixtures";
import { atMost } from "../stats";
import type { Scenario } from "./scenario";

/**
 * Three conditions, one on an event: newsletter readers in Paris or Berlin who opened an email in
 * the last 30 days (about 1 in 70 contacts of the fixture).
 */
const FILTER: Filter = {
  all: [
    { field: "tags", op: "contains", value: "newsletter" },
    { field: "metadata.city", op: "in", value: ["Paris", "Berlin"] },
    { event: "email.opened", op: "happened", within_days: 30 },
  ],
};

const SAMPLE = 10;

/**
 * The events of the contacts organization, as sending and tracking leave them: an `email.sent` for
 * every contact 45 days ago, an `email.opened` for a third of them spread over the last 60 days,
 * and a machine's open (an image proxy) for a seventh.
 */
const eventsOf = (bench: Bench, org: ProductOrg) =>
  fixture(bench, "contact-events", async () => {
    bench.log("seeding the contacts' events");
    const started = performance.now();
    await bench.pg.query(
      `INSERT INTO events (organization_id, contact_id, name, source, occurred_at, machine)
       SELECT c.organization_id, c.id, e.name, 'tracking', now() - e.days * interval '1 day', e.machine
       FROM (SELECT id, organization_id, row_number() OVER (ORDER BY id) AS n FROM contacts WHERE organization_id = $1::uuid) c
       CROSS JOIN LATERAL (VALUES ('email.sent', 45, false, true), ('email.opened', (c.n % 60)::int, false, c.n % 3 = 0),
                                  ('email.opened', (c.n % 20)::int, true, c.n % 7 = 0)) AS e(name, days, machine, wanted)
       WHERE e.wanted`,
      [org.organizationId],
    );
    await bench.pg.query("VACUUM ANALYZE events");
    bench.log(`  seeded in ${seconds(started).toFixed(1)} s`);
  });

/**
 * The statements previewSegment runs — the count and the sample, side by side — with the SQL the
 * compiler writes for the filter, through plain pg.
 */
async function baselinePreview(bench: Bench, organizationId: string) {
  const where = await filterCondition(db, organizationId, FILTER);
  const org = Prisma.sql`c.organization_id = ${organizationId}::uuid`;
  const count = Prisma.sql`SELECT count(*)::int AS total FROM contacts c WHERE ${org} AND ${where}`;
  const sample = Prisma.sql`SELECT c.*, s.reason::text AS suppression_reason, s.created_at AS suppressed_at
    FROM contacts c LEFT JOIN suppressions s ON s.organization_id = c.organization_id AND s.email = c.email
    WHERE ${org} AND ${where} ORDER BY c.created_at DESC, c.id DESC LIMIT ${SAMPLE}`;
  const started = performance.now();
  const [counted, rows] = await Promise.all([bench.pg.query<{ total: number }>(count.text, count.values), bench.pg.query(sample.text, sample.values)]);
  return { ms: seconds(started) * 1000, total: counted.rows[0].total, rows: rows.rowCount ?? 0 };
}

export const dynamicSegmentScenario: Scenario = {
  id: "dynamic-segment",
  figures: [{ scenario: "dynamic segment: preview count", unit: "ms p50", target: "ratio <= 1.5" }],
  async run(bench) {
    const org = await contactsOrg(bench);
    await eventsOf(bench, org);
    const body = Buffer.from(JSON.stringify({ filter: FILTER }));
    const product: number[] = [];
    const baseline: number[] = [];
    let total = 0;
    for (let sample = -2; sample < bench.sizes.latencySamples; sample++) {
      const runProduct = async () => {
        const { data, ms } = await bench.http.json<{ contacts_count: number; sample: unknown[] }>("POST", "/v1/segments/preview", org.token, body);
        if (data.sample.length !== Math.min(SAMPLE, data.contacts_count))
          throw new Error(`the preview sampled ${data.sample.length} of ${data.contacts_count}`);
        total = data.contacts_count;
        if (sample >= 0) product.push(ms);
      };
      const runBaseline = async () => {
        const answer = await baselinePreview(bench, org.organizationId);
        if (sample >= 0) baseline.push(answer.ms);
        if (total && answer.total !== total) throw new Error(`the baseline counted ${answer.total}, the preview ${total}`);
      };
      await alternate(sample, runProduct, runBaseline);
    }
    return [
      atMost(
        "dynamic segment: preview count",
        "ms p50",
        product,
        baseline,
        1.5,
        `POST /v1/segments/preview of ${JSON.stringify(FILTER)} over ${bench.sizes.contacts.toLocaleString("en-US")} contacts ` +
          `(${total.toLocaleString("en-US")} matching, and their events); baseline: the same count and sample SQL through pg, side by side`,
      ),
    ];
  },
};
