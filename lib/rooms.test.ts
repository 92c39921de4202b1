import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The rooms (ARCHITECTURE.md) are kept by ESLint: this proves the rules bite where they should and
// leave alone what is allowed, on code linted as if it lived at the given path.
const root = path.resolve(import.meta.dirname, "..");
const eslint = new ESLint({ cwd: root });

async function ruleIds(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return result.messages.map((message) => `${message.line}:${message.ruleId}`);
}

describe("the rooms, as ESLint keeps them", () => {
  it("refuses the database, services, the engine, settings and the Prisma client in a component", { timeout: 60_000 }, async () => {
    const code = [
      'import { db } from "@/lib/db";',
      'import { listContacts } from "@/lib/services/contacts";',
      'import { env } from "@/lib/env";',
      'import { createSender } from "@/lib/sending/sender";',
      'import { PrismaClient } from "@/lib/generated/prisma/client";',
      "export const used = [db, listContacts, env, createSender, PrismaClient];",
    ].join("\n");
    const expected = [1, 2, 3, 4, 5].map((line) => `${line}:no-restricted-imports`);
    expect(await ruleIds("components/contacts/probe.tsx", code)).toEqual(expected);
    expect(await ruleIds("lib/client/probe.ts", code)).toEqual(expected);
    // Contracts are imported by the dashboard: they keep to its rules, and the HTTP server is not theirs either.
    expect(await ruleIds("lib/contracts/probe.ts", code)).toEqual(expected);
    expect(await ruleIds("lib/contracts/probe.ts", 'import { AppError } from "@/lib/api/errors";\nexport const used = AppError;')).toEqual([
      "1:no-restricted-imports",
    ]);
  });

  it("keeps the contracts' zod out of the dashboard: it imports their types only", { timeout: 60_000 }, async () => {
    const value = ['import { listContactsContract } from "@/lib/contracts/contacts";', "export const used = listContactsContract;"].join("\n");
    expect(await ruleIds("components/contacts/probe.tsx", value)).toEqual(["1:no-restricted-imports"]);
    const typeOnly = ['import type { listContactsContract } from "@/lib/contracts/contacts";', "export type Used = typeof listContactsContract;"].join("\n");
    expect(await ruleIds("components/contacts/probe.tsx", typeOnly)).toEqual([]);
  });

  it("lets a component use schemas, templating and the generated enums", { timeout: 60_000 }, async () => {
    const code = [
      'import { createContactInput } from "@/lib/schemas/contacts";',
      'import { renderEmail } from "@/lib/templating/render-email";',
      'import { EmailStatus } from "@/lib/generated/prisma/enums";',
      'import type { Route } from "@/lib/contracts";',
      "export const used = [createContactInput, renderEmail, EmailStatus];",
      'export const route: Route = "GET /v1/contacts";',
    ].join("\n");
    expect(await ruleIds("components/contacts/probe.tsx", code)).toEqual([]);
  });

  it("keeps the audience below the services and the engine, which both import it", { timeout: 60_000 }, async () => {
    const code = [
      'import { db } from "@/lib/db";',
      'import { listContacts } from "@/lib/services/contacts";',
      'import { fanOut } from "@/lib/sending/fan-out";',
      'import { exitReasonSql } from "@/lib/sequences/exit-reason";',
      'import { route } from "@/lib/api/route";',
      "export const used = [db, listContacts, fanOut, exitReasonSql, route];",
    ].join("\n");
    expect(await ruleIds("lib/audience/probe.ts", code)).toEqual([2, 3, 4, 5].map((line) => `${line}:no-restricted-imports`));
    const users = 'import { segmentCondition } from "@/lib/audience/membership";\nexport const used = segmentCondition;';
    expect(await ruleIds("lib/services/probe.ts", users)).toEqual([]);
    expect(await ruleIds("lib/sending/probe.ts", users)).toEqual([]);
  });

  it("keeps lib/events below the services, the engine and the consumers; its dispatcher is the worker's", { timeout: 60_000 }, async () => {
    const upward = [
      'import { db } from "@/lib/db";',
      'import { listContacts } from "@/lib/services/contacts";',
      'import { recordSent } from "@/lib/sending/record-sent";',
      'import { webhookConsumer } from "@/lib/webhooks/announce";',
      'import { segmentCondition } from "@/lib/audience/membership";',
      'import { route } from "@/lib/api/route";',
      "export const used = [db, listContacts, recordSent, webhookConsumer, segmentCondition, route];",
    ].join("\n");
    expect(await ruleIds("lib/events/probe.ts", upward)).toEqual([2, 3, 4, 5, 6].map((line) => `${line}:no-restricted-imports`));
    // The list of consumers names their modules, and only those.
    const list =
      'import { webhookConsumer } from "@/lib/webhooks/announce";\nimport { listContacts } from "@/lib/services/contacts";\nexport const used = [webhookConsumer, listContacts];';
    expect(await ruleIds("lib/events/consumers.ts", list)).toEqual(["2:no-restricted-imports"]);
    // Recorders and consumers use record, sql and consumer; the outbox and the dispatcher are the worker's.
    const recorder = [
      'import { recordEvents } from "@/lib/events/record";',
      'import { recordEventsCtes } from "@/lib/events/sql";',
      'import type { EventConsumer } from "@/lib/events/consumer";',
      "export const used = [recordEvents, recordEventsCtes];",
      "export type Used = EventConsumer;",
    ].join("\n");
    for (const where of ["lib/services/probe.ts", "lib/sending/probe.ts", "lib/webhooks/probe.ts", "lib/automations/probe.ts"])
      expect(await ruleIds(where, recorder)).toEqual([]);
    const dispatcher =
      'import { dispatchEvents } from "@/lib/events/dispatch";\nimport { claimAnnouncements } from "@/lib/events/outbox";\nexport const used = [dispatchEvents, claimAnnouncements];';
    expect(await ruleIds("lib/services/probe.ts", dispatcher)).toEqual(["1:no-restricted-imports", "2:no-restricted-imports"]);
    expect(await ruleIds("app/v1/probe/route.ts", dispatcher)).toEqual(["1:no-restricted-imports", "2:no-restricted-imports"]);
    expect(await ruleIds("worker/probe.ts", dispatcher)).toEqual([]);
    expect(await ruleIds("lib/audience/probe.ts", 'import { recordEvents } from "@/lib/events/record";\nexport const used = recordEvents;')).toEqual([
      "1:no-restricted-imports",
    ]);
  });

  it("keeps the engine below the services; the rules both apply live in rooms both import", { timeout: 60_000 }, async () => {
    const service = 'import { pauseBroadcast } from "@/lib/services/broadcast-sending";\nexport const used = pauseBroadcast;';
    const engine = ["lib/sending", "lib/replies", "lib/sequences", "lib/feedback", "lib/tracking"];
    for (const room of [...engine, "lib/events", "lib/audience", "lib/senders", "lib/inboxes"])
      expect(await ruleIds(`${room}/probe.ts`, service), room).toEqual(["1:no-restricted-imports"]);
    // The worker wires the engine and the services together; the engine's tests may use services as fixtures.
    expect(await ruleIds("worker/probe.ts", service)).toEqual([]);
    expect(await ruleIds("lib/feedback/probe.test.ts", service)).toEqual([]);
    // What both sides need has one owner below them both.
    const shared = [
      'import type { DbClient } from "@/lib/db";',
      'import { domainOf, returnPathHost } from "@/lib/domain/addresses";',
      'import type { AttachmentMeta } from "@/lib/domain/attachment-meta";',
      'import { inboxProvenSql, isInboxProven } from "@/lib/senders/proof";',
      'import { recordInboxFailures } from "@/lib/inboxes/inbox-health";',
      "export const used = [domainOf, returnPathHost, inboxProvenSql, isInboxProven, recordInboxFailures];",
      "export type Used = [DbClient, AttachmentMeta];",
    ].join("\n");
    for (const room of [...engine, "lib/services"]) expect(await ruleIds(`${room}/probe.ts`, shared), room).toEqual([]);
    // The API's pause calls the engine's.
    expect(
      await ruleIds("lib/services/probe.ts", 'import { pauseBroadcastIn } from "@/lib/sending/pause-broadcast";\nexport const used = pauseBroadcastIn;'),
    ).toEqual([]);
    // Those rooms import neither side, and the engine still leaves the outbox to the worker.
    const upward = 'import { fanOut } from "@/lib/sending/fan-out";\nimport { route } from "@/lib/api/route";\nexport const used = [fanOut, route];';
    for (const room of ["lib/senders", "lib/inboxes"])
      expect(await ruleIds(`${room}/probe.ts`, upward), room).toEqual(["1:no-restricted-imports", "2:no-restricted-imports"]);
    const dispatcher = 'import { dispatchEvents } from "@/lib/events/dispatch";\nexport const used = dispatchEvents;';
    for (const room of [...engine, "lib/senders", "lib/inboxes"])
      expect(await ruleIds(`${room}/probe.ts`, dispatcher), room).toEqual(["1:no-restricted-imports"]);
  });

  it("keeps the automations engine from the services and the HTTP layer, and lets it use the audience and events", { timeout: 60_000 }, async () => {
    const upward = [
      'import { listContacts } from "@/lib/services/contacts";',
      'import { route } from "@/lib/api/route";',
      'import { dispatchEvents } from "@/lib/events/dispatch";',
      "export const used = [listContacts, route, dispatchEvents];",
    ].join("\n");
    expect(await ruleIds("lib/automations/probe.ts", upward)).toEqual([1, 2, 3].map((line) => `${line}:no-restricted-imports`));
    const below = [
      'import { segmentCondition } from "@/lib/audience/membership";',
      'import { recordEvents } from "@/lib/events/record";',
      'import { UNPLACED } from "@/lib/sending/windows";',
      'import { db } from "@/lib/db";',
      "export const used = [segmentCondition, recordEvents, UNPLACED, db];",
    ].join("\n");
    expect(await ruleIds("lib/automations/probe.ts", below)).toEqual([]);
    // Services use the engine's modules (activation, archiving), not the other way round.
    expect(await ruleIds("lib/services/probe.ts", 'import { archiveRuns } from "@/lib/automations/lifecycle";\nexport const used = archiveRuns;')).toEqual([]);
  });

  it("lets services use the database, and reads process.env only in lib/env.ts", { timeout: 60_000 }, async () => {
    expect(await ruleIds("lib/services/probe.ts", 'import { db } from "@/lib/db";\nexport const used = db;')).toEqual([]);
    expect(await ruleIds("lib/services/probe.ts", "export const port = process.env.PORT;")).toEqual(["1:no-restricted-properties"]);
    expect(await ruleIds("lib/env.ts", "export const port = process.env.PORT;")).toEqual([]);
  });

  it("opens database connections in lib/db only", { timeout: 60_000 }, async () => {
    const opening = ['import pg from "pg";', "export const pool = new pg.Pool({ max: 1 });", "export const client = new pg.Client({});"].join("\n");
    expect(await ruleIds("lib/sending/probe.ts", opening)).toEqual(["2:no-restricted-syntax", "3:no-restricted-syntax"]);
    expect(await ruleIds("lib/services/probe.ts", opening)).toEqual(["2:no-restricted-syntax", "3:no-restricted-syntax"]);
    expect(await ruleIds("lib/db/probe.ts", opening)).toEqual([]);
    const made = ['import { createPool } from "@/lib/db/connections";', 'export const pool = createPool("probe", { max: 1 });'].join("\n");
    expect(await ruleIds("lib/sending/probe.ts", made)).toEqual([]);
    const adapter = [
      'import { PrismaPg } from "@prisma/adapter-pg";',
      'import { createPool } from "@/lib/db/connections";',
      "export const own = new PrismaPg({ max: 1 });",
      'export const byAddress = new PrismaPg("postgres://localhost/db");',
      'export const shared = new PrismaPg(createPool("probe", { max: 1 }));',
    ].join("\n");
    expect(await ruleIds("lib/sending/probe.ts", adapter)).toEqual(["3:no-restricted-syntax", "4:no-restricted-syntax"]);
    const renamed = ['import postgres from "pg";', "export const pool = new postgres.Pool({ max: 1 });"].join("\n");
    expect(await ruleIds("lib/sending/probe.ts", renamed)).toEqual(["2:no-restricted-syntax"]);
  });
});
