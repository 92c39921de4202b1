import { alternate, seconds } from "../bench";
import { contactAt, random } from "../data";
import { contactsOrg } from "../fixtures";
import { atMost } from "../stats";
import type { Scenario } from "./scenario";

/** Half of the addresses name contacts (some typed in capitals), half do not; each sample a different draw. */
function addresses(sample: number, size: number, contacts: number) {
  const next = random(sample);
  const chosen = new Set<number>();
  while (chosen.size < size / 2) chosen.add(Math.floor(next() * contacts));
  const emails: string[] = [];
  for (const i of chosen) {
    const email = contactAt(i).email;
    emails.push(i % 3 === 0 ? email.toUpperCase() : email, `nobody.${sample}.${i}@elsewhere.example`);
  }
  return emails;
}

const SQL = "SELECT email FROM contacts WHERE organization_id = $1::uuid AND email = ANY($2::text[])";

export const checkEmailsScenario: Scenario = {
  id: "check-emails",
  figures: [{ scenario: "check-emails", unit: "ms p50", target: "ratio <= 1.5" }],
  async run(bench) {
    const org = await contactsOrg(bench);
    const { checkBatch, latencySamples, contacts } = bench.sizes;
    const product: number[] = [];
    const baseline: number[] = [];
    const client = await bench.pg.connect();
    try {
      // Two untimed rounds first, so that neither side pays for cold caches.
      for (let sample = -2; sample < latencySamples; sample++) {
        const emails = addresses(sample + 1000, checkBatch, contacts);
        const body = Buffer.from(JSON.stringify({ emails }));
        const runProduct = async () => {
          const { data, ms } = await bench.http.json<{ existing: string[] }>("POST", "/v1/contacts/check-emails", org.token, body);
          if (data.existing.length !== checkBatch / 2) throw new Error(`check-emails found ${data.existing.length}, not ${checkBatch / 2}`);
          if (sample >= 0) product.push(ms);
        };
        const runBaseline = async () => {
          const started = performance.now();
          const { rowCount } = await client.query(SQL, [org.organizationId, emails.map((e) => e.trim().toLowerCase())]);
          if (rowCount !== checkBatch / 2) throw new Error(`the baseline query found ${rowCount}`);
          if (sample >= 0) baseline.push(seconds(started) * 1000);
        };
        await alternate(sample, runProduct, runBaseline);
      }
    } finally {
      client.release();
    }
    return [
      atMost(
        "check-emails",
        "ms p50",
        product,
        baseline,
        1.5,
        `${checkBatch.toLocaleString("en-US")} addresses against ${contacts.toLocaleString("en-US")} contacts; baseline: the same = ANY($1) query through pg`,
      ),
    ];
  },
};
