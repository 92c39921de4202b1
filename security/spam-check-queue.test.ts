import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { broadcastChecksOperation } from "@/lib/api/operations/presend-checks";
import { execute } from "@/lib/api/route";
import { env } from "@/lib/env";
import type { PresendChecks } from "@/lib/schemas/presend-checks";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";
import { waitUntil } from "@/lib/testing/worker-process";

// The pre-send spam check runs SpamAssassin, a core for a second or more per run, one run at a time
// per web process (docs/SECURITY.md, "Email content"). It was one queue for every tenant, unbounded
// and deaf to clients that had gone: 15 abandoned checks of one tenant held another's for 34 s.
// A stand-in SpamAssassin (a real process that takes its time) logs which organization's message it
// scores, so the tests assert the order of runs, not how long anything took.

let dir: string;
let original: string;
const runs = () => readFileSync(path.join(dir, "runs.log"), "utf8").trim().split("\n").filter(Boolean);

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "fake-spamassassin-"));
  const script = path.join(dir, "spamassassin");
  writeFileSync(path.join(dir, "runs.log"), "");
  writeFileSync(
    script,
    `#!/bin/sh
subject=$(sed -n 's/^Subject: //p' | head -n 1 | tr -d '\\r')
echo "start $subject" >> "${dir}/runs.log"
trap 'echo "killed $subject" >> "${dir}/runs.log"; kill $! 2>/dev/null; exit 143' TERM
sleep 2 & wait $!
echo "end $subject" >> "${dir}/runs.log"
echo "X-Spam-Status: No, score=1.5 required=5.0 tests=FAKE_RULE autolearn=no version=4.0.1"
`,
  );
  chmodSync(script, 0o755);
  original = env.spamassassinPath;
  (env as { spamassassinPath: string }).spamassassinPath = script;
});
afterAll(() => {
  (env as { spamassassinPath: string }).spamassassinPath = original;
  rmSync(dir, { recursive: true, force: true });
});

async function broadcastOf(org: TestOrg, subject: string): Promise<string> {
  const created = await org.owner.api.post("/v1/broadcasts", { name: subject, from_email: "a@acme.test", subject, html_content: "<p>Hello there</p>" });
  expect(created.status).toBe(201);
  return created.body.id;
}

/** GET /v1/broadcasts/{id}/checks as the route serves it, with the request's own AbortSignal. */
async function spamCheck(org: TestOrg, id: string, signal?: AbortSignal) {
  const request = new Request(`http://localhost/v1/broadcasts/${id}/checks`, { headers: { authorization: `Bearer ${org.owner.token}` }, signal });
  const response = await execute(broadcastChecksOperation, request);
  const body = (await response.json()) as PresendChecks;
  return body.checks.find((check) => check.id === "spam")!;
}

describe("the pre-send spam check's queue", () => {
  it("cancels the checks of clients that went away: their runs are stopped and another organization's check goes next", { timeout: 120_000 }, async () => {
    const [a, b] = [await createTestOrg(), await createTestOrg()];
    const [aId, bId] = [await broadcastOf(a, "abandoned-A"), await broadcastOf(b, "waiting-B")];
    const before = runs().length;
    const controllers = Array.from({ length: 15 }, () => new AbortController());
    const abandoned = controllers.map((controller) => spamCheck(a, aId, controller.signal));
    await waitUntil(
      () =>
        runs()
          .slice(before)
          .some((line) => line.startsWith("start abandoned-A")),
      60_000,
      "the first check to start",
    );
    for (const controller of controllers) controller.abort();
    await Promise.all(abandoned);

    const check = await spamCheck(b, bId);
    expect(check).toMatchObject({ status: "pass", message: expect.stringMatching(/scores the content 1.5/) });
    const log = runs().slice(before);
    // The one run that had started was stopped; none of the other fourteen ever started.
    expect(log.filter((line) => line.startsWith("start abandoned-A"))).toHaveLength(1);
    expect(log).toContain("killed abandoned-A");
    expect(log.indexOf("start waiting-B")).toBe(log.indexOf("killed abandoned-A") + 1);
  });

  it(
    "holds a few checks per organization and answers the rest at once that it is busy; another organization is served next",
    { timeout: 120_000 },
    async () => {
      const [a, b] = [await createTestOrg(), await createTestOrg()];
      const [aId, bId] = [await broadcastOf(a, "greedy-A"), await broadcastOf(b, "patient-B")];
      const before = runs().length;
      const greedy = Array.from({ length: 15 }, () => spamCheck(a, aId));
      await waitUntil(
        () =>
          runs()
            .slice(before)
            .some((line) => line.startsWith("start greedy-A")),
        60_000,
        "the first check to start",
      );
      const patient = spamCheck(b, bId);

      const answers = await Promise.all(greedy);
      const busy = answers.filter((check) => check.status === "skipped" && /busy/.test(check.message));
      // SPAMASSASSIN_CHECKS_PER_ORGANIZATION: 2 (the default) running or waiting.
      expect(busy).toHaveLength(13);
      expect(await patient).toMatchObject({ status: "pass" });
      const starts = runs()
        .slice(before)
        .filter((line) => line.startsWith("start"));
      // B's check waited for the run under way, not for A's queue: A's second check runs after B's.
      expect(starts).toEqual(["start greedy-A", "start patient-B", "start greedy-A"]);
    },
  );
});
