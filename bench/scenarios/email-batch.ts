import { randomUUID } from "node:crypto";
import { addDomain } from "@/lib/services/domains";
import { alternate, copyInto, seconds, type Bench } from "../bench";
import { atLeast } from "../stats";
import type { Scenario } from "./scenario";

const BATCH = 100;
const ROUNDS = { full: 40, quick: 12 };
const DOMAIN = "batch.bench.example";
const COLUMNS = "id, organization_id, message_id, from_email, to_email, subject, html_content, text_content, status";

const email = (round: number, i: number) => ({
  from: `Shop <orders@${DOMAIN}>`,
  to: `customer-${round}-${i}@recipients.example`,
  subject: `Your order ${round}-${i}`,
  html: `<p>Hello, your order <b>${round}-${i}</b> has shipped.</p>`,
  text: `Hello, your order ${round}-${i} has shipped.`,
});

/** The same emails as COPY rows of `emails` (text format: tabs and newlines escaped, none here). */
function copyRows(organizationId: string, round: number) {
  return Array.from({ length: BATCH }, (_, i) => {
    const e = email(round, i);
    const id = randomUUID();
    return `${[id, organizationId, `<${id}@${DOMAIN}>`, `orders@${DOMAIN}`, e.to, e.subject, e.html, e.text, "queued"].join("\t")}\n`;
  });
}

/**
 * `POST /v1/emails/batch` of 100 emails against COPY of the same 100 email rows, round by round.
 * The product validates, renders and checks every email (verified sender, suppressions, contacts)
 * and writes a thread for each; the baseline only writes the rows. Nothing is sent: no worker runs,
 * and the rows are removed afterwards.
 */
export const emailBatchScenario: Scenario = {
  id: "email-batch",
  figures: [{ scenario: "POST /v1/emails/batch of 100", unit: "emails/s", target: "ratio >= 0.3" }],
  async run(bench: Bench) {
    const product = await bench.createOrg("email batch");
    await addDomain(product.organizationId, DOMAIN, { verified: true });
    const baselineOrg = await bench.bareOrg("email batch baseline");
    const rounds = bench.quick ? ROUNDS.quick : ROUNDS.full;
    // Warm the route, the schemas and the statements once on both sides.
    await bench.http.json(
      "POST",
      "/v1/emails/batch",
      product.token,
      Array.from({ length: BATCH }, (_, i) => email(-1, i)),
    );
    await copyInto(bench.pg, "emails", COLUMNS, copyRows(baselineOrg, -1));

    const productRates: number[] = [];
    const baselineRates: number[] = [];
    try {
      for (let round = 0; round < rounds; round++) {
        const body = Buffer.from(JSON.stringify(Array.from({ length: BATCH }, (_, i) => email(round, i))));
        const rows = copyRows(baselineOrg, round);
        await alternate(
          round,
          async () => {
            const started = performance.now();
            const { data } = await bench.http.json<{ data: { id: string }[] }>("POST", "/v1/emails/batch", product.token, body);
            const elapsed = seconds(started);
            if (data.data.length !== BATCH) throw new Error(`the batch answered ${data.data.length} ids, not ${BATCH}`);
            productRates.push(BATCH / elapsed);
          },
          async () => baselineRates.push(BATCH / (await copyInto(bench.pg, "emails", COLUMNS, rows))),
        );
      }
    } finally {
      for (const organizationId of [product.organizationId, baselineOrg]) {
        await bench.pg.query("DELETE FROM emails WHERE organization_id = $1", [organizationId]);
        await bench.pg.query("DELETE FROM threads WHERE organization_id = $1", [organizationId]);
      }
    }
    return [
      atLeast(
        "POST /v1/emails/batch of 100",
        "emails/s",
        productRates,
        baselineRates,
        0.3,
        `${rounds} requests of ${BATCH} emails (HTML and text, one verified sender) with an API key; baseline: COPY of the same ${BATCH} email rows, request for request`,
      ),
    ];
  },
};
