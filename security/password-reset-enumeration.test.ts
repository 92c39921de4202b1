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

describe("password reset requests", () => {
  it("answer the same, and before any mail work, for an address with an account as for one without", async () => {
    const samples = 5;
    const users = await Promise.all(Array.from({ length: samples }, () => createUser()));
    // Before: over ten times slower with an account (a link made and mailed, through the relay, before
    // the answer). Rather than compare durations (a loaded machine makes any bound flaky), check the
    // cause: the relay holds every message 150 ms before taking it, so a link mailed before the answer
    // would already be in the relay when the answer arrives. And the two answers must not differ.
    for (let i = 0; i < samples; i++) {
      const known = await ask(users[i].email, `192.0.2.${i + 1}`);
      expect(relay.messages.filter((m) => m.envelopeTo.includes(users[i].email))).toHaveLength(0);
      const unknown = await ask(nobody(), `198.51.100.${i + 1}`);
      expect(known.status).toBe(200);
      expect(unknown.status).toBe(known.status);
      expect(unknown.body).toEqual(known.body);
      expect([...unknown.headers.keys()].sort()).toEqual([...known.headers.keys()].sort());
      await settleMailAfterAnswer();
    }
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
