import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { startSmtpSink } from "@/lib/testing/smtp-sink";

// Trust, second pass: "Forgot password?" took 159 ms for an address with an account and 6 ms for
// one without (the link was made and mailed, through the relay, before the answer), and 60 requests
// in a row were never throttled. The system mail goes to a relay that takes its time, as a real one
// does; lib/env reads the settings once, so they are set before anything imports it.
const relay = await startSmtpSink({ answerDelayMs: 150 });
process.env.SMTP_URL = `smtp://${relay.host}:${relay.port}`;
process.env.PASSWORD_RESETS_PER_HOUR = "3";
process.env.PASSWORD_RESETS_PER_CLIENT_PER_HOUR = "10";
const { POST: requestReset } = await import("@/app/api/account/password-reset/request/route");
const { PEER_HEADER } = await import("@/lib/api/client-address");
const { settleMailAfterAnswer } = await import("@/lib/mail/after-answer");
const { callRoute, createUser } = await import("@/lib/testing/accounts");

afterAll(() => relay.close());
const mailTo = async (email: string) => {
  await settleMailAfterAnswer();
  return relay.messages.filter((m) => m.envelopeTo.includes(email));
};

const ask = (email: string, client: string) =>
  callRoute(requestReset, "/api/account/password-reset/request", { body: { email }, headers: { [PEER_HEADER]: client } });
const nobody = () => `nobody-${randomUUID()}@example.test`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

describe("password reset requests", () => {
  it("take as long for an address with an account as for one without", async () => {
    const samples = 21;
    const users = await Promise.all(Array.from({ length: samples }, () => createUser()));
    const known: number[] = [];
    const unknown: number[] = [];
    // Interleaved, each from its own client, so both kinds meet the same load; the work a request
    // leaves behind is finished before the next one is timed.
    for (let i = 0; i < samples; i++) {
      known.push(await timed(() => ask(users[i].email, `192.0.2.${i + 1}`)));
      await settleMailAfterAnswer();
      unknown.push(await timed(() => ask(nobody(), `198.51.100.${i + 1}`)));
      await settleMailAfterAnswer();
    }
    const ratio = median(known) / median(unknown);
    // Before: over ten times slower with an account (a link made and mailed before the answer). Now
    // the same statements either way; the bounds leave room for a loaded machine and still catch that gap.
    const measured = `with an account ${median(known).toFixed(1)} ms, without ${median(unknown).toFixed(1)} ms`;
    expect(ratio, measured).toBeLessThan(2.5);
    expect(ratio, measured).toBeGreaterThan(0.4);
    // The links did go out, after the answers.
    for (const user of users) expect(await mailTo(user.email)).toHaveLength(1);
  });

  it("are throttled per address and per client, whether or not the address has an account", async () => {
    const user = await createUser();
    for (const email of [user.email, nobody()]) {
      for (let i = 0; i < 3; i++) expect((await ask(email, `203.0.113.${i + 1}`)).status).toBe(200);
      // A fourth for the same address, from yet another client.
      const refused = await ask(email.toUpperCase(), "203.0.113.99");
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe("RATE_LIMITED");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect(await mailTo(user.email)).toHaveLength(3);

    // One client asking for many addresses.
    const client = "198.18.0.7";
    for (let i = 0; i < 10; i++) expect((await ask(nobody(), client)).status).toBe(200);
    const refused = await ask(nobody(), client);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("RATE_LIMITED");
    // Another client is not held back by it.
    expect((await ask(nobody(), "198.18.0.8")).status).toBe(200);
  });
});
