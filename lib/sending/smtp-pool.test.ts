import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { classifyFailure } from "./deliver";
import { SmtpPool, type SmtpPoolOptions } from "./smtp-pool";

const message = (to: string) => ({
  envelope: { from: "news@pool.test", to: [to] },
  raw: Buffer.from(`From: news@pool.test\r\nTo: ${to}\r\nSubject: Hi\r\nMessage-ID: <${to}>\r\n\r\nHello\r\n`),
  messageId: `<${to}>`,
});

const options = <Context = unknown>(port: number, more: Partial<SmtpPoolOptions<Context>> = {}) => ({
  host: "127.0.0.1",
  port,
  maxConnections: 2,
  maxMessages: 1000,
  connectionTimeout: 5_000,
  greetingTimeout: 5_000,
  socketTimeout: 5_000,
  ...more,
});

/** A server that speaks SMTP up to the message and then drops the connection without answering it. */
async function droppingServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = net.createServer((socket) => {
    socket.write("220 drop.test ESMTP\r\n");
    let inData = false;
    socket.on("data", (chunk) => {
      const text = chunk.toString();
      if (inData) {
        if (text.includes("\r\n.\r\n")) socket.destroy();
        return;
      }
      for (const line of text.split("\r\n").filter(Boolean)) {
        if (/^EHLO/i.test(line)) socket.write("250-drop.test\r\n250 8BITMIME\r\n");
        else if (/^DATA/i.test(line)) {
          inData = true;
          socket.write("354 go on\r\n");
        } else socket.write("250 ok\r\n");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe("the relay's own SMTP pool", () => {
  let sink: SmtpSink;
  let guarded: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
    guarded = await startSmtpSink({ credentials: { user: "relay", pass: "secret" } });
  });
  afterAll(async () => {
    await sink.close();
    await guarded.close();
  });

  it("sends over at most maxConnections, opens new ones past maxMessages, and answers with the server's reply", async () => {
    const pool = new SmtpPool(options(sink.port, { maxMessages: 2 }));
    try {
      const addresses = Array.from({ length: 7 }, (_, i) => `r${i}@pool.test`);
      const infos = await Promise.all(addresses.map((to) => pool.sendMail(message(to))));
      expect(infos.every((info) => /^250/.test(info.response ?? ""))).toBe(true);
      expect(infos.map((info) => info.messageId)).toEqual(addresses.map((to) => `<${to}>`));
      expect(sink.messages.map((m) => m.envelopeTo[0]).sort()).toEqual([...addresses].sort());
    } finally {
      pool.close();
    }
  });

  it("ends no message while as many as it has connections are accepted and not yet settled (recorded): a crash repeats at most that many", async () => {
    const own = await startSmtpSink({ parse: false });
    // Each accepted message is "recorded" when the test says so.
    const settles: (() => void)[] = [];
    const pool = new SmtpPool<string>(
      options(own.port, {
        maxConnections: 2,
        settle: () => {
          const written = new Promise<unknown>((resolve) => settles.push(() => resolve("written")));
          return { free: written, result: written };
        },
      }),
    );
    try {
      const addresses = Array.from({ length: 6 }, (_, i) => `s${i}@pool.test`);
      const sent = addresses.map((to) => pool.sendMail(message(to), to));
      await expect.poll(() => own.messages.length).toBe(2);
      // The next two are on their connections, all but their end: the server does not have them yet.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(own.messages).toHaveLength(2);
      // One recorded: exactly one more may be ended.
      settles.shift()!();
      await expect.poll(() => own.messages.length).toBe(3);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(own.messages).toHaveLength(3);
      for (let i = 0; i < 10 && own.messages.length < addresses.length; i++) {
        while (settles.length > 0) settles.shift()!();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      while (settles.length > 0) settles.shift()!();
      const infos = await Promise.all(sent);
      expect(infos.map((info) => info.settled)).toEqual(addresses.map(() => "written"));
      expect(own.messages.map((m) => m.envelopeTo[0]).sort()).toEqual([...addresses].sort());
    } finally {
      pool.close();
      await own.close();
    }
  });

  it("logs in when the relay asks for it, and a wrong password fails the message as the relay's problem", async () => {
    const pool = new SmtpPool(options(guarded.port, { auth: { user: "relay", pass: "secret" } }));
    const wrong = new SmtpPool(options(guarded.port, { auth: { user: "relay", pass: "nope" } }));
    try {
      await pool.sendMail(message("in@pool.test"));
      expect(guarded.messages.map((m) => m.user)).toEqual(["relay"]);
      const refused = await wrong.sendMail(message("out@pool.test")).then(
        () => null,
        (error: unknown) => error,
      );
      expect(classifyFailure(refused)).toMatchObject({
        permanent: false,
        inboxProblem: true,
        reason: "SMTP authentication failed: the server refused the credentials",
      });
    } finally {
      pool.close();
      wrong.close();
    }
  });

  it("a connection lost in the middle of a message fails that message as a lost connection, and the pool goes on", async () => {
    const dropping = await droppingServer();
    const pool = new SmtpPool(options(dropping.port, { maxConnections: 1 }));
    try {
      const results = await Promise.allSettled([pool.sendMail(message("a@pool.test")), pool.sendMail(message("b@pool.test"))]);
      expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
      for (const r of results) expect(classifyFailure((r as PromiseRejectedResult).reason)).toMatchObject({ permanent: false });
    } finally {
      pool.close();
      await dropping.close();
    }
  });

  it("a refused recipient is the recipient's permanent bounce, and the next message still goes", async () => {
    const pool = new SmtpPool(options(sink.port, { maxConnections: 1 }));
    try {
      sink.reject("gone@pool.test", 550);
      const refused = await pool.sendMail(message("gone@pool.test")).then(
        () => null,
        (error: unknown) => error,
      );
      expect(classifyFailure(refused)).toMatchObject({ permanent: true, code: 550 });
      await pool.sendMail(message("next@pool.test"));
      expect(sink.messages.map((m) => m.envelopeTo[0])).toContain("next@pool.test");
    } finally {
      pool.close();
    }
  });
});
