import { setTimeout as sleep } from "node:timers/promises";
import { seconds } from "../bench";
import { contactsOrg } from "../fixtures";
import { memory } from "../stats";
import type { Scenario } from "./scenario";

const REPEATS = 2;

export const memoryListScenario: Scenario = {
  id: "memory-list",
  figures: [{ scenario: "memory: unpaged contact list", unit: "MB RSS", target: "value - baseline <= 300 MB" }],
  async run(bench) {
    const org = await contactsOrg(bench);
    const peaks: number[] = [];
    const idles: number[] = [];
    let detail = "";
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      await bench.server.restart();
      await bench.http.json("GET", "/v1/contacts?limit=1", org.token);
      await sleep(1000);
      idles.push(bench.server.rss.currentMb());
      bench.server.rss.resetPeak();
      let bytes = 0;
      let tail = "";
      const started = performance.now();
      const reply = await bench.http.request("GET", "/v1/contacts", {
        token: org.token,
        onChunk: (chunk) => {
          bytes += chunk.length;
          tail = (tail + chunk.toString("utf8")).slice(-200);
        },
      });
      const elapsed = seconds(started);
      peaks.push(bench.server.rss.peakMb());
      const total = /"total":(\d+)/.exec(tail)?.[1];
      if (reply.status !== 200 || Number(total) !== bench.sizes.contacts) throw new Error(`GET /v1/contacts answered ${reply.status}, ending ${tail}`);
      detail = `${(bytes / 1024 / 1024).toFixed(0)} MB of JSON in ${elapsed.toFixed(1)} s (${Math.round(bench.sizes.contacts / elapsed).toLocaleString("en-US")} contacts/s)`;
      bench.log(`  unpaged list: ${detail}, peak ${peaks.at(-1)!.toFixed(0)} MB, idle ${idles.at(-1)!.toFixed(0)} MB`);
    }
    return [memory("memory: unpaged contact list", peaks, idles, 300, `GET /v1/contacts without limit: ${detail}; baseline: the same server idle`)];
  },
};
