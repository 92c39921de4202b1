import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import net from "node:net";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { returnPathAddress } from "@/lib/feedback/verp";
import { addDomain } from "@/lib/services/domains";
import { createTestOrg } from "@/lib/testing/api";
import { createIsolatedDatabase } from "@/lib/testing/isolated-database";
import { rawArf, rawDsn } from "@/lib/testing/reports";
import { startWorkerProcess, waitUntil } from "@/lib/testing/worker-process";
import { freePort } from "@/lib/testing/free-port";

// The report listener behind every return-path MX (docs/SECURITY.md, "Deliverability"): anyone who
// received one email holds a return-path token, and with it flooded the listener (+528 MB that it
// kept), the worker and the database, while real reports got 451. The listener runs here as the
// real process (`scripts/inbound.ts`), its RSS read from /proc while an attacker on 127.0.0.1
// floods it and a receiving system on 127.0.0.2 delivers a real report.

let listener: ChildProcess;
let port: number;
let output = "";

const rssMb = (pid = listener.pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

/** Samples a process's RSS every 20 ms until stopped; answers the highest. */
function sampleRss(pid = listener.pid) {
  let peak = rssMb(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);
  return () => {
    clearInterval(timer);
    return Math.max(peak, rssMb(pid));
  };
}

async function deliver(to: string, raw: string, localAddress = "127.0.0.1") {
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true, localAddress, connectionTimeout: 60_000 });
  try {
    return await transport.sendMail({ envelope: { from: "", to }, raw });
  } finally {
    transport.close();
  }
}

beforeAll(async () => {
  port = await freePort();
  listener = spawn(process.execPath, ["--import", "tsx", "scripts/inbound.ts"], {
    env: { ...process.env, NODE_ENV: "test", INBOUND_SMTP_PORT: String(port), INBOUND_SMTP_LISTEN: "127.0.0.1", LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  listener.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  listener.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await waitUntil(
    () =>
      new Promise<boolean>((resolve) => {
        const socket = net.connect(port, "127.0.0.1");
        socket.once("data", () => resolve(socket.destroy() !== undefined));
        socket.once("error", () => resolve(false));
      }),
    60_000,
    "the listener to answer",
  );
});
afterAll(() => {
  listener?.kill();
});

/** A domain with a verified return path and one sent email per address; their return-path tokens. */
async function tokens(count: number) {
  const { organizationId } = await createTestOrg();
  const domain = `flood-${randomUUID().slice(0, 8)}.example.com`;
  await addDomain(organizationId, domain, { verified: true });
  const made = [];
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    const email = await db.email.create({
      data: {
        id,
        organization_id: organizationId,
        message_id: `<${id}@${domain}>`,
        from_email: `news@${domain}`,
        to_email: `r${i}-${id.slice(0, 6)}@example.net`,
        subject: "S",
        status: "sent",
        sent_at: new Date(),
      },
    });
    made.push({ email, token: returnPathAddress(id, `bounces.${domain}`) });
  }
  return made;
}

/** A distinct message just under the 2 MB limit: a report whose bytes differ each time is never a repeat. */
const bulky = () => `Subject: flood ${randomUUID()}\r\n\r\n${`${"a".repeat(998)}\r\n`.repeat(1900)}`;

describe("a flood of reports", () => {
  it(
    "with one token, over many connections, grows the listener by little and a real report from elsewhere is accepted meanwhile",
    { timeout: 300_000 },
    async () => {
      const [attacker] = await tokens(1);
      const [real] = await tokens(1);
      // Warm: the listener's first report compiles its code path.
      await deliver(real.token, rawDsn({ to: real.token, action: "delayed", finalRecipient: real.email.to_email }), "127.0.0.2");
      const before = rssMb();
      const peak = sampleRss();

      const outcomes: string[] = [];
      const lane = async () => {
        for (let i = 0; i < 3; i++) {
          await deliver(attacker.token, bulky()).then(
            () => outcomes.push("accepted"),
            (error: { responseCode?: number }) => outcomes.push(String(error.responseCode ?? "dropped")),
          );
        }
      };
      const flood = Promise.all(Array.from({ length: 100 }, lane));
      // While it floods, a receiving system elsewhere delivers a real report.
      await waitUntil(() => outcomes.length >= 10, 120_000, "the flood to be under way");
      const accepted = await deliver(real.token, rawDsn({ to: real.token, action: "failed", finalRecipient: real.email.to_email }), "127.0.0.2");
      expect(accepted.response).toMatch(/^250/);
      await flood;
      const grew = peak() - before;
      console.info(`[flood] listener RSS ${Math.round(before)} MB, peak +${Math.round(grew)} MB; answers: ${JSON.stringify(countBy(outcomes))}`);

      // 300 messages of 1.9 MB: the listener holds a bounded few at a time, and stores what the token may send.
      expect(grew).toBeLessThan(120);
      const stored = await db.feedbackReport.count({ where: { recipient: attacker.token } });
      expect(stored).toBeLessThanOrEqual(10);
      expect(outcomes.filter((o) => o === "accepted")).toHaveLength(stored);
      expect(await db.feedbackReport.count({ where: { recipient: real.token } })).toBe(2);
      expect(output).not.toMatch(/"level":(50|60)/);
    },
  );
});

describe("connections", () => {
  it(
    "one client without a token cannot hold the listener's connection slots: a real report from elsewhere is still accepted",
    { timeout: 120_000 },
    async () => {
      const [real] = await tokens(1);
      // 500 connections from one address that never say anything: the listener's every slot.
      const greetings: string[] = [];
      const sockets = await Promise.all(
        Array.from(
          { length: 500 },
          () =>
            new Promise<net.Socket>((resolve) => {
              const socket = net.connect(port, "127.0.0.1");
              socket.on("error", () => undefined);
              socket.once("data", (data) => {
                greetings.push(data.toString().slice(0, 3));
                resolve(socket);
              });
              socket.once("close", () => resolve(socket));
            }),
        ),
      );
      try {
        const accepted = await deliver(real.token, rawDsn({ to: real.token, action: "failed", finalRecipient: real.email.to_email }), "127.0.0.2");
        expect(accepted.response).toMatch(/^250/);
        // At most INBOUND_CONNECTIONS_PER_CLIENT (10 by default) were greeted (fewer while the last
        // test's connections are still closing); the rest were told to come back later.
        expect(greetings.filter((code) => code === "220").length).toBeLessThanOrEqual(10);
        expect(greetings.filter((code) => code === "421").length).toBeGreaterThanOrEqual(490);
      } finally {
        for (const socket of sockets) socket.destroy();
      }
    },
  );
});

describe("the worker", () => {
  it("reads a flood of stored reports a bounded batch at a time", { timeout: 300_000 }, async () => {
    const database = await createIsolatedDatabase("report_flood");
    const worker = startWorkerProcess(database.url, { LOG_LEVEL: "info" });
    try {
      await waitUntil(() => worker.output().includes("[worker] running"), 60_000, "the worker to start");
      const before = rssMb(worker.child.pid);
      const peak = sampleRss(worker.child.pid);
      // 100 complaints of 1.9 MB each (a complaint carries the whole original), stored at once as
      // the listener would have stored a flood of them.
      const to = returnPathAddress(randomUUID(), "bounces.flood.example.com");
      const template = rawArf({ to, recipient: "someone@example.net", originalMessageId: "<x@flood.example.com>" }).replace("The original body.", "@@PAD@@");
      await database.db.$executeRaw`
        INSERT INTO feedback_reports (source, recipient, fingerprint, raw)
        SELECT 'smtp', ${to}, md5(g::text || random()::text), convert_to(replace(${template}, '@@PAD@@', repeat(${`${"a".repeat(998)}\r\n`}, 1900)), 'UTF8')
        FROM generate_series(1, 100) g`;
      const left = () => database.db.feedbackReport.count({ where: { status: { in: ["pending", "processing"] } } });
      await waitUntil(async () => (await left()) === 0, 240_000, "the worker to read every report");
      const grew = peak() - before;
      console.info(`[flood] worker RSS ${Math.round(before)} MB, peak +${Math.round(grew)} MB reading 100 reports of 1.9 MB`);
      expect(await database.db.feedbackReport.count({ where: { status: "discarded" } })).toBe(100);
      // 190 MB of reports, read in batches of at most 16 MB (measured +130 to +160 MB, mostly the
      // parser's garbage); read all at once, as before, +780 MB.
      expect(grew).toBeLessThan(300);
    } finally {
      worker.child.kill("SIGKILL");
      await worker.exited;
      await database.drop();
    }
  });
});

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
