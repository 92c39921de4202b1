import { existsSync } from "node:fs";
import path from "node:path";
import { alternate, type Bench, type ProductOrg } from "../bench";
import { SendingWorker } from "../processes";
import { atLeast, unavailable } from "../stats";
import { audience, WORKER_ENTRY } from "./broadcast-send";
import type { Scenario } from "./scenario";

const FIGURE = { scenario: "conditional blocks: send rate", unit: "emails/s", target: "ratio >= 0.9" };

const paragraph = (text: string) => ({ type: "paragraph", content: [{ type: "text", text }] });
const WEEK = "Here is what happened this week. ".repeat(8);

/** Three blocks each shown to some of the audience (by first name, by address, by both), or to everyone. */
const CONDITIONS = [
  { field: "first_name", op: "starts_with", value: "A" },
  { field: "email", op: "contains", value: "1" },
  {
    any: [
      { field: "last_name", op: "starts_with", value: "M" },
      { field: "email", op: "contains", value: "7" },
    ],
  },
];

/** The same email with and without its conditional blocks: the blocks' words are sent to everyone in the baseline. */
function document(conditional: boolean) {
  const blocks = CONDITIONS.map((filter, i) => {
    const inner = [paragraph(`Offer ${i + 1}: ${WEEK}`)];
    return conditional ? { type: "conditional", attrs: { filter }, content: inner } : inner[0];
  });
  return {
    type: "doc",
    content: [
      { type: "heading", attrs: { level: 1 }, content: [{ type: "text", text: "This week" }] },
      paragraph(WEEK),
      ...blocks,
      { type: "button", attrs: { label: "Read more", href: "https://bench.example/read" } },
      { type: "footer" },
    ],
  };
}

async function send(bench: Bench, org: ProductOrg, segmentId: string, count: number, conditional: boolean, name: string) {
  const { data } = await bench.http.json<{ id: string }>(
    "POST",
    "/v1/broadcasts",
    org.token,
    {
      name,
      subject: "News of the week",
      from_email: "news@bench.example",
      segment_id: segmentId,
      sending_speed: "instant",
      content_json: document(conditional),
    },
    201,
  );
  await bench.sink.reset();
  const started = Date.now();
  await bench.http.json("POST", `/v1/broadcasts/${data.id}/send`, org.token, {});
  const stats = await bench.sink.waitFor(count, 120_000);
  return count / ((stats.lastAt! - started) / 1000);
}

/**
 * A block email with three conditional blocks to the whole audience against the same email with
 * the blocks shown to everyone, through the same worker and relay: what deciding and cutting the
 * blocks per recipient costs (one query per batch, a rendering per combination).
 */
export const conditionalBlocksScenario: Scenario = {
  id: "conditional-blocks",
  figures: [FIGURE],
  async run(bench) {
    if (!existsSync(path.join(process.cwd(), WORKER_ENTRY))) return [unavailable(FIGURE.scenario, FIGURE.unit, FIGURE.target, "no worker")];
    const { recipients, sendRepeats } = bench.sizes;
    const { org, all, warmup } = await audience(bench, recipients);
    const worker = new SendingWorker(path.join(bench.dataDir, "worker.log"), bench.serverEnv);
    worker.start(WORKER_ENTRY);
    try {
      await send(bench, org, warmup, 10, true, "warm-up");
      const product: number[] = [];
      const baseline: number[] = [];
      for (let repeat = 0; repeat < sendRepeats; repeat++) {
        await alternate(
          repeat,
          async () => {
            product.push(await send(bench, org, all, recipients, true, `conditional ${repeat}`));
            bench.log(`  with conditional blocks: ${Math.round(product.at(-1)!)} emails/s`);
          },
          async () => {
            baseline.push(await send(bench, org, all, recipients, false, `plain ${repeat}`));
            bench.log(`  without: ${Math.round(baseline.at(-1)!)} emails/s`);
          },
        );
      }
      const note = `${recipients.toLocaleString("en-US")} recipients, a block email with 3 conditional blocks against the same blocks shown to all, through the relay to a local sink`;
      return [atLeast(FIGURE.scenario, FIGURE.unit, product, baseline, 0.9, note)];
    } finally {
      await worker.stop();
    }
  },
};
