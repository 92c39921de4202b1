import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { classifyFailure } from "./deliver";
import { RelayInThread } from "./relay-in-thread";

const message = (to: string) => ({
  envelope: { from: "news@relay.test", to: [to] },
  raw: Buffer.from(`From: news@relay.test\r\nTo: ${to}\r\nSubject: Hi\r\nMessage-ID: <${to}>\r\n\r\nHello\r\n`),
  messageId: `<${to}>`,
});

describe("the relay in a thread of its own", () => {
  let sink: SmtpSink;
  let slow: SmtpSink;
  /** A relay that offers DSN, as one that reports delivery does. */
  let dsnSink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
    slow = await startSmtpSink({ answerDelayMs: 1_500 });
    dsnSink = await startSmtpSink({ dsn: true });
  });
  afterAll(async () => {
    await sink.close();
    await slow.close();
    await dsnSink.close();
  });

  it("sends what it is given and answers as nodemailer would, refusals with their SMTP fields", async () => {
    const relay = new RelayInThread(`smtp://127.0.0.1:${sink.port}`);
    try {
      sink.reject("gone@relay.test", 550);
      const [sent, refused] = await Promise.allSettled([relay.sendMail(message("anna@relay.test")), relay.sendMail(message("gone@relay.test"))]);
      expect(sent.status).toBe("fulfilled");
      expect((sent as PromiseFulfilledResult<{ response?: string }>).value.response).toMatch(/^250/);
      // No DSN asked of a relay that does not offer it: no delivery report can come.
      expect((sent as PromiseFulfilledResult<{ dsn?: boolean }>).value.dsn).toBe(false);
      expect((await sink.waitFor(1))[0]).toMatchObject({ envelopeTo: ["anna@relay.test"], messageId: "<anna@relay.test>" });
      expect(refused.status).toBe("rejected");
      expect(classifyFailure((refused as PromiseRejectedResult).reason)).toMatchObject({ permanent: true, code: 550, inboxProblem: false });
    } finally {
      relay.close();
    }
  });

  it("marks an accepted email's claim from the thread, with the relay's answer and whether it asked for a delivery report (a worker that dies next records it as sent, leases.ts)", async () => {
    // email_claims has no foreign key: a claim of its own is enough for the thread's mark.
    const claimed = randomUUID();
    await db.emailClaim.create({ data: { email_id: claimed, locked_until: new Date(Date.now() + 60_000) } });
    const relay = new RelayInThread(`smtp://127.0.0.1:${dsnSink.port}`, { databaseUrl: env.databaseUrl });
    try {
      const dsn = { ret: "HDRS" as const, envid: claimed, notify: ["SUCCESS" as const, "FAILURE" as const], orcpt: "rfc822;marked@relay.test" };
      const info = await relay.sendMail({ ...message("marked@relay.test"), dsn }, claimed);
      expect(info.dsn).toBe(true);
      // The answer does not wait for the mark's commit: wait for it.
      let claim = await db.emailClaim.findUniqueOrThrow({ where: { email_id: claimed } });
      for (let i = 0; i < 200 && !claim.accepted_at; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        claim = await db.emailClaim.findUniqueOrThrow({ where: { email_id: claimed } });
      }
      expect(claim).toMatchObject({ accepted_at: expect.any(Date), accepted_response: info.response, accepted_dsn: true });
      expect(info.response).toMatch(/^250/);
    } finally {
      relay.close();
      await db.emailClaim.delete({ where: { email_id: claimed } });
    }
  });

  it("a thread that dies fails what it held as a lost connection (retried, not bounced), and the next send starts a new one", async () => {
    const relay = new RelayInThread(`smtp://127.0.0.1:${slow.port}`);
    try {
      const held = relay.sendMail(message("held@relay.test"));
      // Once the sink has the message (it answers 1.5 s later), the thread is mid-conversation: kill it.
      for (let i = 0; i < 200 && (slow.attempts.get("held@relay.test") ?? 0) === 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
      await (relay as unknown as { thread: { terminate: () => Promise<number> } }).thread.terminate();
      const failure = await held.then(
        () => null,
        (error: unknown) => error,
      );
      expect(classifyFailure(failure)).toMatchObject({ permanent: false, inboxProblem: true, reason: "Could not connect to the SMTP server" });

      // The same relay starts a new thread. (The sink may still count the first message: a server that
      // had it all may deliver it, which is why a retry keeps its Message-ID.)
      await relay.sendMail(message("after@relay.test"));
      expect(slow.messages.map((m) => m.envelopeTo[0])).toContain("after@relay.test");
    } finally {
      relay.close();
    }
  });
});
