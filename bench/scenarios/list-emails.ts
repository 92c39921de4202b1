import { emailsOrg } from "../fixtures";
import { atMost, median } from "../stats";
import type { Scenario } from "./scenario";

type Envelope = { data: { id: string }[]; has_more?: boolean };

export const listEmailsScenario: Scenario = {
  id: "list-emails",
  figures: [{ scenario: "list emails: cursor pages 2–51", unit: "ms p50", target: "ratio <= 2" }],
  async run(bench) {
    const org = await emailsOrg(bench);
    const { emailPages, emailPageSize, emailWalks } = bench.sizes;
    const first: number[] = [];
    const deep: number[] = [];
    const byPage: number[][] = Array.from({ length: emailPages }, () => []);
    // One untimed walk first, so that both page 1 and the deep pages are measured warm.
    for (let walk = -1; walk < emailWalks; walk++) {
      const page1 = await bench.http.json<Envelope>("GET", `/v1/emails?limit=${emailPageSize}`, org.token);
      if (page1.data.data.length !== emailPageSize) throw new Error(`page 1 has ${page1.data.data.length} emails`);
      if (walk >= 0) first.push(page1.ms);
      let after = page1.data.data.at(-1)!.id;
      for (let page = 0; page < emailPages; page++) {
        const next = await bench.http.json<Envelope>("GET", `/v1/emails?limit=${emailPageSize}&after=${after}`, org.token);
        if (next.data.data.length !== emailPageSize) throw new Error(`cursor page ${page + 2} has ${next.data.data.length} emails`);
        after = next.data.data.at(-1)!.id;
        if (walk >= 0) {
          deep.push(next.ms);
          byPage[page].push(next.ms);
        }
      }
    }
    const note =
      `${emailWalks} walks of ${emailPages} cursor pages of ${emailPageSize} over ${bench.sizes.emails.toLocaleString("en-US")} emails; ` +
      `baseline: page 1 (GET /v1/emails?limit=${emailPageSize}, page mode, which also counts the total); ` +
      `p50 of the first cursor page ${median(byPage[0]).toFixed(1)} ms, of the last ${median(byPage[emailPages - 1]).toFixed(1)} ms`;
    return [atMost("list emails: cursor pages 2–51", "ms p50", deep, first, 2, note)];
  },
};
