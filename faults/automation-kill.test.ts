import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIsolatedDatabase, type IsolatedDatabase } from "@/lib/testing/isolated-database";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { startWorkerProcess, waitUntil, type WorkerProcess } from "@/lib/testing/worker-process";

const RUNS = 5000;
const KILLS = 4;

describe("a worker SIGKILLed while 5 000 automation runs are mid-flow", () => {
  let database: IsolatedDatabase;
  let sink: SmtpSink;
  const started: WorkerProcess[] = [];

  beforeAll(async () => {
    database = await createIsolatedDatabase("automation_kill");
    sink = await startSmtpSink({ parse: false });
  });
  afterAll(async () => {
    for (const worker of started) if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill("SIGKILL");
    await sink.close();
    await database.drop();
  });

  it("runs no step twice and loses none", { timeout: 600_000 }, async () => {
    const db = database.db;
    const org = await db.organization.create({ data: { name: "Automation kill" } });
    await db.domain.create({
      data: { organization_id: org.id, name: "news.test", status: "verified", verification_token: randomUUID(), verified_at: new Date() },
    });
    const segment = await db.segment.create({ data: { organization_id: org.id, name: "Reached" } });
    const ids = { send1: randomUUID(), tag: randomUUID(), add: randomUUID(), check: randomUUID(), send2: randomUUID(), wait: randomUUID() };
    // Every step of the first round has an effect a repeat would show: a second email (its own
    // Message-ID), a second history row, a second segment membership (the engine's insert would
    // count it), the tags list growing.
    const automation = await db.automation.create({
      data: {
        organization_id: org.id,
        name: "Mid-flow",
        status: "active",
        trigger: { type: "event", event: "go" },
        trigger_event: "go",
        steps: [
          { id: ids.send1, type: "send_email", subject: "One {{first_name}}", html_content: "<p>One</p>", from_email: "hello@news.test" },
          { id: ids.tag, type: "update_contact", add_tags: ["reached"] },
          { id: ids.add, type: "add_to_segment", segment_id: segment.id },
          { id: ids.wait, type: "wait", minutes: 1 },
          { id: ids.check, type: "condition", wait_result: "event", yes: [{ type: "exit", id: randomUUID() }], no: [] },
          { id: ids.send2, type: "send_email", subject: "Two {{first_name}}", html_content: "<p>Two</p>", from_email: "hello@news.test" },
        ],
      },
    });
    // Each run starts from a custom event, recorded and announced as POST /v1/events does: the
    // worker's dispatcher (killed too) starts the runs from the outbox.
    await db.$executeRaw`
      WITH added AS (
        INSERT INTO contacts (organization_id, email, first_name)
        SELECT ${org.id}::uuid, 'runner' || g || '@flow.test', 'Runner ' || g FROM generate_series(1, ${RUNS}::int) g
        RETURNING id),
      recorded AS (
        INSERT INTO events (organization_id, contact_id, name, source, occurred_at)
        SELECT ${org.id}::uuid, id, 'go', 'api', now() FROM added
        RETURNING id)
      INSERT INTO event_outbox (organization_id, event_id) SELECT ${org.id}::uuid, id FROM recorded`;
    await db.$executeRaw`ANALYZE contacts, events, event_outbox`;

    // Small batches, so each kill lands among many transactions of the engine.
    const env = { SMTP_RELAY_URL: `smtp://${sink.host}:${sink.port}`, AUTOMATIONS_BATCH_SIZE: "50" };
    const historyRows = () => db.automationRunStep.count({ where: { automation_id: automation.id } });
    const log: string[] = [];
    const killAt = async (target: number) => {
      const victim = startWorkerProcess(database.url, env);
      started.push(victim);
      try {
        await waitUntil(async () => (await historyRows()) >= target, 240_000, `${target} history rows`);
      } catch (error) {
        throw new Error(`${(error as Error).message}\n${victim.output()}`);
      }
      victim.child.kill("SIGKILL");
      expect((await victim.exited).signal).toBe("SIGKILL");
      log.push(`killed at ${await historyRows()} history rows, ${sink.messages.length} messages`);
    };
    // The first round of steps (4 rows a run, then the wait), then the second after the minute.
    for (let i = 0; i < KILLS / 2; i++) await killAt(Math.floor(RUNS * 4 * (0.2 + 0.3 * i + Math.random() * 0.2)));
    for (let i = 0; i < KILLS / 2; i++) await killAt(Math.floor(RUNS * 4 + RUNS * 2 * (0.2 + 0.3 * i + Math.random() * 0.2)));

    const last = startWorkerProcess(database.url, env);
    started.push(last);
    const finished = async () => (await db.automationRun.count({ where: { automation_id: automation.id, status: "completed" } })) === RUNS;
    const delivered = async () => new Set(sink.messages.map((m) => m.messageId)).size >= RUNS * 2;
    try {
      await waitUntil(async () => (await finished()) && (await delivered()), 300_000, "every run completed and its emails delivered");
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${log.join("\n")}\n${last.output()}`);
    }
    last.child.kill("SIGTERM");
    expect((await last.exited).code).toBe(0);
    console.log(`[faults] automation runs: ${KILLS} kills (${log.join("; ")})`);

    // None lost: every run completed, through every step, each once.
    const runs = await db.automationRun.groupBy({ by: ["status"], where: { automation_id: automation.id }, _count: { _all: true } });
    expect(runs).toEqual([{ status: "completed", _count: { _all: RUNS } }]);
    const perStep = await db.automationRunStep.groupBy({ by: ["step_id", "outcome"], where: { automation_id: automation.id }, _count: { _all: true } });
    const counted = Object.fromEntries(perStep.map((row) => [`${row.step_id}:${row.outcome}`, row._count._all]));
    expect(counted).toEqual({
      [`${ids.send1}:queued`]: RUNS,
      [`${ids.tag}:updated`]: RUNS,
      [`${ids.add}:added`]: RUNS,
      [`${ids.wait}:waited`]: RUNS,
      [`${ids.check}:no`]: RUNS,
      [`${ids.send2}:queued`]: RUNS,
    });
    expect(await db.segmentContact.count({ where: { segment_id: segment.id } })).toBe(RUNS);
    const tagged = await db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM contacts WHERE organization_id = ${org.id}::uuid AND tags = ARRAY['reached']`;
    expect(tagged[0].n).toBe(RUNS);

    // No step ran twice: two emails a contact, and no recipient got a third Message-ID (a resend of
    // one that went out unrecorded keeps its Message-ID: that is the sender's, not a step's, repeat).
    const emails = await db.email.groupBy({ by: ["automation_step_id"], where: { automation_id: automation.id }, _count: { _all: true } });
    expect(emails.map((row) => [row.automation_step_id, row._count._all]).sort()).toEqual(
      [
        [ids.send1, RUNS],
        [ids.send2, RUNS],
      ].sort(),
    );
    const perRecipient = new Map<string, Set<string>>();
    for (const mail of sink.messages) {
      const to = mail.envelopeTo[0];
      perRecipient.set(to, (perRecipient.get(to) ?? new Set()).add(mail.messageId ?? ""));
    }
    expect(perRecipient.size).toBe(RUNS);
    expect([...perRecipient.values()].filter((set) => set.size !== 2)).toEqual([]);

    // The contacts' timelines say the same, once each: the automation.* events of a step commit with
    // its history row, and the entry with its run (from the one consumed announcement of each event).
    const moments = await db.event.groupBy({ by: ["name"], where: { automation_id: automation.id, source: "automation" }, _count: { _all: true } });
    expect(Object.fromEntries(moments.map((row) => [row.name, row._count._all]))).toEqual({
      "automation.entered": RUNS,
      "automation.send_email": RUNS * 2,
      "automation.update_contact": RUNS,
      "automation.add_to_segment": RUNS,
      "automation.wait": RUNS,
      "automation.condition": RUNS,
      "automation.completed": RUNS,
      // update_contact's change, recorded as a contact.updated of the automation, once too.
      "contact.updated": RUNS,
    });
  });
});
