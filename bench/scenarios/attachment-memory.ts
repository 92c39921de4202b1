import { randomBytes } from "node:crypto";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { addDomain } from "@/lib/services/domains";
import { SendingWorker } from "../processes";
import { RssSampler } from "../rss";
import { memory } from "../stats";
import type { Scenario } from "./scenario";

const DOMAIN = "files.bench.example";
const ATTACHMENT_MB = 10;
const REPEATS = 3;

const FIGURES = [
  { scenario: "memory: 10 MB of attachments, web server", unit: "MB RSS", target: `value - baseline <= ${3 * ATTACHMENT_MB} MB` },
  { scenario: "memory: 10 MB of attachments, worker", unit: "MB RSS", target: `value - baseline <= ${3 * ATTACHMENT_MB} MB` },
];

/** Two files of 5 MB of random bytes (incompressible, as real documents and images are), as base64. */
const files = () => [1, 2].map((n) => ({ filename: `document-${n}.pdf`, content: randomBytes((ATTACHMENT_MB / 2) * 1024 * 1024).toString("base64") }));

/**
 * An email with 10 MB of attachments, from the request to the relay: the web server's RSS while it
 * takes the request (the body streams through a spool file into the database), and the worker's
 * while it sends the message (streamed from the database, DKIM-signed in two passes). Each against
 * the same process idle just before; the target is three times the attachments.
 */
export const attachmentMemoryScenario: Scenario = {
  id: "attachment-memory",
  figures: FIGURES,
  async run(bench) {
    const org = await bench.createOrg("attachments");
    await addDomain(org.organizationId, DOMAIN, { verified: true });
    const worker = new SendingWorker(path.join(bench.dataDir, "worker.log"), bench.serverEnv);
    worker.start("worker/index.ts");
    const workerRss = new RssSampler(worker.pid);
    const send = async (attachments: { filename: string; content: string }[]) => {
      const before = (await bench.sink.stats()).count;
      const body = Buffer.from(
        JSON.stringify({ from: `Files <files@${DOMAIN}>`, to: "reader@recipients.example", subject: "Your documents", text: "Attached.", attachments }),
      );
      await bench.http.json("POST", "/v1/emails", org.token, body, 201);
      await bench.sink.waitFor(before + 1, 120_000);
    };
    const server = { peaks: [] as number[], idles: [] as number[] };
    const sender = { peaks: [] as number[], idles: [] as number[] };
    let first = "";
    try {
      // Everything loaded and compiled once, on both sides, with a small file; then one email of the
      // full size, unmeasured here: each process's first one also grows V8's heap to its working size
      // (reported in the note).
      await send([{ filename: "small.pdf", content: randomBytes(100_000).toString("base64") }]);
      await sleep(1000);
      const [serverIdle, workerIdle] = [bench.server.rss.currentMb(), workerRss.currentMb()];
      bench.server.rss.resetPeak();
      workerRss.resetPeak();
      await send(files());
      first = `the first such email: server +${(bench.server.rss.peakMb() - serverIdle).toFixed(0)} MB, worker +${(workerRss.peakMb() - workerIdle).toFixed(0)} MB`;
      bench.log(`  ${first}`);
      for (let repeat = 0; repeat < REPEATS; repeat++) {
        const attachments = files();
        await sleep(1000);
        server.idles.push(bench.server.rss.currentMb());
        sender.idles.push(workerRss.currentMb());
        bench.server.rss.resetPeak();
        workerRss.resetPeak();
        await send(attachments);
        server.peaks.push(bench.server.rss.peakMb());
        sender.peaks.push(workerRss.peakMb());
        bench.log(
          `  10 MB of attachments: server +${(server.peaks.at(-1)! - server.idles.at(-1)!).toFixed(1)} MB, worker +${(sender.peaks.at(-1)! - sender.idles.at(-1)!).toFixed(1)} MB`,
        );
      }
    } finally {
      await workerRss.stop();
      await worker.stop();
    }
    const note = `POST /v1/emails with two files of 5 MB (13.4 MB of base64 in the body) until the relay has the DKIM-signed message, ${REPEATS} emails after a first (${first}); baseline: the same process idle just before`;
    return [
      memory(FIGURES[0].scenario, server.peaks, server.idles, 3 * ATTACHMENT_MB, note),
      memory(FIGURES[1].scenario, sender.peaks, sender.idles, 3 * ATTACHMENT_MB, note),
    ];
  },
};
