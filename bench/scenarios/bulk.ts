import { alternate, copyInto, dropContacts, seconds } from "../bench";
import { bulkElement, chunked, contactAt, COPY_COLUMNS, copyLine } from "../data";
import { atLeast } from "../stats";
import type { Scenario } from "./scenario";

export const bulkScenario: Scenario = {
  id: "bulk",
  figures: [{ scenario: "bulk create", unit: "contacts/s", target: "ratio >= 0.3" }],
  async run(bench) {
    const { bulkBatch, bulkBatches } = bench.sizes;
    const product = await bench.createOrg("bulk");
    const baselineOrg = await bench.bareOrg("bulk baseline");
    const warmup = await bench.createOrg("bulk warm-up");
    await bench.http.json("POST", "/v1/contacts/bulk", warmup.token, { contacts: [0, 1, 2].map((i) => bulkElement(contactAt(i))) });

    const productRates: number[] = [];
    const baselineRates: number[] = [];
    for (let batch = 0; batch < bulkBatches; batch++) {
      const from = batch * bulkBatch;
      const body = Buffer.from(JSON.stringify({ contacts: Array.from({ length: bulkBatch }, (_, k) => bulkElement(contactAt(from + k))) }));
      const copyChunks = [...chunked(from, from + bulkBatch, (i) => copyLine(baselineOrg, contactAt(i)))];
      const runProduct = async () => {
        const started = performance.now();
        const { data } = await bench.http.json<{ imported: number }>("POST", "/v1/contacts/bulk", product.token, body);
        const elapsed = seconds(started);
        if (data.imported !== bulkBatch) throw new Error(`bulk create imported ${data.imported}, not ${bulkBatch}`);
        productRates.push(bulkBatch / elapsed);
      };
      const runBaseline = async () => baselineRates.push(bulkBatch / (await copyInto(bench.pg, "contacts", COPY_COLUMNS, copyChunks)));
      await alternate(batch, runProduct, runBaseline);
    }
    await dropContacts(bench.pg, [product.organizationId, baselineOrg, warmup.organizationId]);
    return [
      atLeast(
        "bulk create",
        "contacts/s",
        productRates,
        baselineRates,
        0.3,
        `${bulkBatches} requests of ${bulkBatch.toLocaleString("en-US")}; baseline: COPY of the same rows, batch for batch`,
      ),
    ];
  },
};
