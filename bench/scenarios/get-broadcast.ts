import { alternate } from "../bench";
import { BARE, BARE_STATUS, load } from "../http";
import { atLeast } from "../stats";
import type { Scenario } from "./scenario";

export const getBroadcastScenario: Scenario = {
  id: "get-broadcast",
  figures: [{ scenario: "GET /v1/broadcasts/{id}", unit: "req/s", target: "ratio >= 0.6" }],
  async run(bench) {
    const { connections, loadSeconds, loadRounds } = bench.sizes;
    const org = await bench.createOrg("broadcast reads");
    const { data: broadcast } = await bench.http.json<{ id: string }>(
      "POST",
      "/v1/broadcasts",
      org.token,
      { name: "Weekly news", subject: "News of the week", from_email: "news@bench.example", html_content: "<p>Hello</p>", tags: ["weekly"] },
      201,
    );
    const path = `/v1/broadcasts/${broadcast.id}`;
    // Warm-up until V8 has optimized both paths (the first seconds run at a third of the speed):
    // connections opened, both handlers compiled, the key's last_used_at written.
    const warmup = bench.quick ? 3 : 6;
    await load(bench.http, path, org.token, connections, warmup);
    await load(bench.http, BARE, undefined, connections, warmup, BARE_STATUS);

    const product: number[] = [];
    const baseline: number[] = [];
    let failures = "";
    for (let round = 0; round < loadRounds; round++) {
      const runProduct = async () => {
        const result = await load(bench.http, path, org.token, connections, loadSeconds);
        if (result.failed) failures = `${result.failed} failed requests, e.g. ${result.lastFailure}`;
        product.push(result.rps);
      };
      const runBaseline = async () => {
        const result = await load(bench.http, BARE, undefined, connections, loadSeconds, BARE_STATUS);
        if (result.failed) failures = `${result.failed} failed bare requests, e.g. ${result.lastFailure}`;
        baseline.push(result.rps);
      };
      await alternate(round, runProduct, runBaseline);
      bench.log(`  round ${round + 1}: ${Math.round(product.at(-1)!)} req/s against ${Math.round(baseline.at(-1)!)} bare`);
    }
    const note = `${connections} keep-alive connections, ${loadRounds} rounds of ${loadSeconds} s each; baseline: GET ${BARE} (constant JSON, no auth, no database)`;
    return [atLeast("GET /v1/broadcasts/{id}", "req/s", product, baseline, 0.6, failures ? `${note}; ${failures}` : note)];
  },
};
