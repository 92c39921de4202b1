import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordEvent } from "@/lib/events/record";
import { createIsolatedDatabase, type IsolatedDatabase } from "@/lib/testing/isolated-database";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { startWorkerProcess, waitUntil, type WorkerProcess } from "@/lib/testing/worker-process";

// Issue 24 asks for 5 s from a custom event to the email in an SMTP sink. The bound here is generous
// (a loaded 2-core CI machine runs this beside other suites); the time taken is printed.
const BOUND_MS = 30_000;

describe("a custom event, the real worker, a real SMTP sink", () => {
  let database: IsolatedDatabase;
  let sink: SmtpSink;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    database = await createIsolatedDatabase("automation_trigger");
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    if (worker && worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill("SIGKILL");
    await sink.close();
    await database.drop();
  });

  it("starts the automation through the outbox and its send_email reaches the sink", { timeout: 120_000 }, async () => {
    const db = database.db;
    const org = await db.organization.create({ data: { name: "Trigger latency" } });
    await db.domain.create({
      data: { organization_id: org.id, name: "fast.test", status: "verified", verification_token: randomUUID(), verified_at: new Date() },
    });
    const contact = await db.contact.create({ data: { organization_id: org.id, email: "reader@fast.test", first_name: "Rea" } });
    await db.automation.create({
      data: {
        organization_id: org.id,
        name: "Instant welcome",
        status: "active",
        trigger: { type: "event", event: "signed_up" },
        trigger_event: "signed_up",
        steps: [{ id: randomUUID(), type: "send_email", subject: "Welcome, {{first_name}}", html_content: "<p>Hi</p>", from_email: "hello@fast.test" }],
      },
    });
    worker = startWorkerProcess(database.url, { SMTP_RELAY_URL: `smtp://${sink.host}:${sink.port}` });
    await waitUntil(() => worker!.output().includes("[worker] running"), 60_000, "the worker to start");

    // What POST /v1/events does (lib/services/events.ts): the event and its announcement, one statement.
    const started = Date.now();
    await recordEvent(db, { organizationId: org.id, contactId: contact.id, name: "signed_up", source: "api" });
    try {
      await waitUntil(() => sink.messages.some((m) => m.envelopeTo.includes("reader@fast.test")), BOUND_MS, "the welcome email in the sink");
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${worker.output()}`);
    }
    const elapsed = Date.now() - started;
    console.log(`[automations] custom event → email in the SMTP sink: ${elapsed} ms`);
    expect(sink.messages.find((m) => m.envelopeTo.includes("reader@fast.test"))!.parsed.subject).toBe("Welcome, Rea");
    // Once: the event was consumed once, and its run took the step once.
    expect(await db.automationRun.count()).toBe(1);
    expect(await db.email.count({ where: { automation_id: { not: null } } })).toBe(1);

    worker.child.kill("SIGTERM");
    expect((await worker.exited).code).toBe(0);
  });
});
