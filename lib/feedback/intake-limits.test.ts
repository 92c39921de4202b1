import { randomUUID } from "node:crypto";
import nodemailer from "nodemailer";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { addDomain } from "@/lib/services/domains";
import { createTestOrg } from "@/lib/testing/api";
import { rawDsn } from "@/lib/testing/reports";
import { startInboundServer, type InboundServer } from "./inbound-server";
import { clientKey, ConnectionCounts, RateBuckets } from "./intake-limits";
import { returnPathAddress } from "./verp";

describe("rate buckets", () => {
  it("grant a burst, then refill at their rate on the caller's clock", () => {
    let now = 0;
    const buckets = new RateBuckets(2, 4, () => now);
    expect([1, 2, 3, 4, 5].map(() => buckets.take("a"))).toEqual([true, true, true, true, false]);
    expect(buckets.take("b")).toBe(true);
    now += 499;
    expect(buckets.take("a")).toBe(false);
    now += 1;
    expect(buckets.take("a")).toBe(true);
    expect(buckets.take("a")).toBe(false);
    now += 60_000;
    expect([1, 2, 3, 4, 5].map(() => buckets.take("a"))).toEqual([true, true, true, true, false]);
  });

  it("are off at rate 0, and remember a bounded number of keys", () => {
    const off = new RateBuckets(0, 0);
    expect(Array.from({ length: 100 }, () => off.take("a")).every(Boolean)).toBe(true);
    const many = new RateBuckets(1, 1, () => 0);
    for (let i = 0; i < 60_000; i++) many.take(`k${i}`);
    expect(many.size).toBe(50_000);
  });
});

describe("client keys and connection counts", () => {
  it("counts an IPv6 client by its /64 and a mapped IPv4 address as itself", () => {
    expect(clientKey("192.0.2.7")).toBe("192.0.2.7");
    expect(clientKey("::ffff:192.0.2.7")).toBe("192.0.2.7");
    expect(clientKey("2001:db8:0:1::5")).toBe("2001:db8:0:1::/64");
    expect(clientKey("2001:db8:0:1:ffff:1:2:3")).toBe("2001:db8:0:1::/64");
    expect(clientKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientKey("::1")).toBe("0:0:0:0::/64");
  });

  it("refuses a client's connection past the cap until one closes", () => {
    const counts = new ConnectionCounts(2);
    expect([counts.tryOpen("a"), counts.tryOpen("a"), counts.tryOpen("a"), counts.tryOpen("b")]).toEqual([true, true, false, true]);
    counts.close("a");
    expect(counts.tryOpen("a")).toBe(true);
  });
});

describe("the listener's rates and buffers", () => {
  let listener: InboundServer | undefined;
  afterEach(() => listener?.close());

  async function send(to: string, raw: string, localAddress = "127.0.0.1") {
    const transport = nodemailer.createTransport({ host: "127.0.0.1", port: listener!.port, secure: false, ignoreTLS: true, localAddress });
    try {
      return await transport.sendMail({ envelope: { from: "", to }, raw });
    } finally {
      transport.close();
    }
  }
  const code = (promise: Promise<unknown>) =>
    promise.then(
      () => 250,
      (error: { responseCode?: number }) => error.responseCode,
    );

  async function tokens(count: number) {
    const { organizationId } = await createTestOrg();
    const domain = `limits-${randomUUID().slice(0, 8)}.example.com`;
    await addDomain(organizationId, domain, { verified: true });
    return Array.from({ length: count }, () => returnPathAddress(randomUUID(), `bounces.${domain}`));
  }
  const report = (to: string) => rawDsn({ to, action: "delayed", finalRecipient: "someone@example.net" });

  it("refuses a client past its rate at RCPT, with a 4xx to come back later; another client is not held back", async () => {
    let now = 0;
    listener = await startInboundServer({ port: 0, host: "127.0.0.1", now: () => now, limits: { reportsPerClientPerSecond: 1, reportsPerTokenPerHour: 0 } });
    const to = await tokens(12);
    // A burst of ten seconds' worth, then refused.
    for (const address of to.slice(0, 10)) expect(await code(send(address, report(address)))).toBe(250);
    expect(await code(send(to[10], report(to[10])))).toBe(450);
    expect(await code(send(to[10], report(to[10]), "127.0.0.2"))).toBe(250);
    now += 1000;
    expect(await code(send(to[11], report(to[11])))).toBe(250);
  });

  it("takes a bounded number of reports for one token an hour", async () => {
    let now = 0;
    listener = await startInboundServer({ port: 0, host: "127.0.0.1", now: () => now, limits: { reportsPerTokenPerHour: 3 } });
    const [token, other] = await tokens(2);
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await code(send(token, report(token), `127.0.0.${2 + i}`)));
    expect(answers).toEqual([250, 250, 250, 450, 450]);
    expect(await code(send(other, report(other)))).toBe(250);
    // Refilled at 3 an hour: one more after 20 minutes.
    now += 20 * 60 * 1000;
    expect([await code(send(token, report(token))), await code(send(token, report(token)))]).toEqual([250, 450]);
    expect(await db.feedbackReport.count({ where: { recipient: token } })).toBe(4);
  });

  it("drops a large message past the bytes it may hold (451, nothing stored), while a small report still fits", async () => {
    listener = await startInboundServer({ port: 0, host: "127.0.0.1", heldBytesBudget: 256 * 1024 });
    const [big, small] = await tokens(2);
    const large = `Subject: large\r\n\r\n${`${"a".repeat(998)}\r\n`.repeat(400)}`;
    expect(await code(send(big, large))).toBe(451);
    expect(await code(send(small, report(small)))).toBe(250);
    expect(await db.feedbackReport.count({ where: { recipient: big } })).toBe(0);
    expect(await db.feedbackReport.count({ where: { recipient: small } })).toBe(1);
  });
});
