import fc from "fast-check";
import { z } from "zod";
import { beforeAll, describe, expect, it } from "vitest";
import { errorStatus } from "@/lib/api/errors";
import type { AnyOperation } from "@/lib/api/operation";
import { operations } from "@/lib/api/operations";
import { execute } from "@/lib/api/route";
import { db } from "@/lib/db";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";

// Bad input never yields a 500: generated bodies, queries and path ids go to every operation, and
// each answer must be a 2xx or a 4xx with the documented error body.

let org: TestOrg;
let realIds: string[] = [];

async function seed(organization_id: string) {
  const segment = await db.segment.create({ data: { organization_id, name: "Seg" } });
  const contact = await db.contact.create({ data: { organization_id, email: "seed@example.test" } });
  const template = await db.template.create({ data: { organization_id, name: "T", subject: "S" } });
  const inbox = await db.inbox.create({
    data: { organization_id, name: "I", from_email: "i@example.test", smtp_host: "127.0.0.1", smtp_port: 2525, sender_confirmed_at: new Date() },
  });
  const broadcast = await db.broadcast.create({ data: { organization_id, name: "B", subject: "S", from_email: "b@example.test" } });
  const step = await db.sequenceStep.create({ data: { organization_id, broadcast_id: broadcast.id, position: 1, delay_minutes: 60, text_content: "x" } });
  const domain = await db.domain.create({ data: { organization_id, name: "seed.example.test", verification_token: "t" } });
  const webhook = await db.webhook.create({ data: { organization_id, url: "https://example.test/h", events: ["email.sent"], secret_encrypted: "x" } });
  const thread = await db.thread.create({ data: { organization_id, subject: "Hello" } });
  const email = await db.email.create({
    data: {
      organization_id,
      message_id: "<seed@example.test>",
      from_email: "b@example.test",
      to_email: "seed@example.test",
      subject: "Hello",
      thread_id: thread.id,
    },
  });
  const topic = await db.topic.create({ data: { organization_id, name: "News" } });
  return [segment, contact, template, inbox, broadcast, step, domain, webhook, thread, email, topic].map((row) => row.id);
}

beforeAll(async () => {
  org = await createTestOrg("Fuzzed org");
  realIds = await seed(org.organizationId);
});

const nasty = fc.constantFrom("", " ", "\u0000", "null", "-1", "0", "1e309", "NaN", "true", "a".repeat(1200), "../../etc", "%", "😀", "<script>");
const anyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.uuid(),
  nasty,
  fc.emailAddress(),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
);
const leaf = fc.oneof(anyString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const value = fc.oneof(leaf, fc.array(leaf, { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 8 }), leaf, { maxKeys: 3 }));

function keysOf(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as { properties?: Record<string, unknown> };
  return Object.keys(json.properties ?? {});
}

function requestFor(op: AnyOperation) {
  const pathParams = (op.path.match(/\{(\w+)\}/g) ?? []).map(() =>
    fc.oneof(fc.constantFrom(...realIds), fc.uuid(), anyString).map((s) => encodeURIComponent(s) || "x"),
  );
  const queryKeys = [...keysOf(op.query), ...keysOf(op.pageQuery), "limit", "after", "before", "page", "offset"];
  const query = fc.dictionary(
    fc.oneof(fc.constantFrom(...queryKeys), fc.string({ maxLength: 6 })),
    fc.oneof(anyString, fc.integer().map(String), fc.constantFrom(...realIds)),
    { maxKeys: 4 },
  );
  const bodyKeys = keysOf(op.body);
  const body = op.body
    ? fc.oneof(
        {
          weight: 4,
          arbitrary: fc
            .dictionary(fc.constantFrom(...(bodyKeys.length ? bodyKeys : ["x"])), fc.oneof(value, fc.constantFrom(...realIds)), {
              maxKeys: bodyKeys.length || 1,
            })
            .map((o) => JSON.stringify(o)),
        },
        { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
        { weight: 1, arbitrary: fc.constantFrom("{", "[1,", "not json", "\u0000", "") },
      )
    : fc.constant(undefined);
  return fc.tuple(fc.tuple(...pathParams), query, body).map(([params, q, b]) => {
    let i = 0;
    const path = op.path.replace(/\{\w+\}/g, () => params[i++]);
    const url = new URL(`http://localhost${path}`);
    for (const [k, v] of Object.entries(q)) url.searchParams.set(k, v);
    return { url: url.toString(), body: b };
  });
}

function assertDocumentedAnswer(status: number, body: unknown, label: string) {
  expect(status, label).toBeLessThan(500);
  if (status < 400) return;
  const b = body as Record<string, unknown>;
  if (status === 422) {
    expect(b, label).toMatchObject({ name: "validation_error", statusCode: 422 });
    expect(typeof b.message, label).toBe("string");
    return;
  }
  expect(typeof b.error, label).toBe("string");
  expect(typeof b.code, label).toBe("string");
  expect(errorStatus[b.code as keyof typeof errorStatus], label).toBe(status);
}

describe("every operation answers generated input with a documented status and body", () => {
  it.each(operations.map((op) => [`${op.method} ${op.path}`, op] as const))("%s", async (_label, op) => {
    await fc.assert(
      fc.asyncProperty(requestFor(op), async ({ url, body }) => {
        const headers: Record<string, string> = { authorization: `Bearer ${org.owner.token}` };
        if (body !== undefined) headers["content-type"] = "application/json";
        const response = await execute(op, new Request(url, { method: op.method, headers, body }));
        const text = await response.text();
        // A CSV export's success is its document; its refusals are JSON as everywhere.
        if (op.mediaType === "text/csv" && response.status < 400) {
          expect(response.headers.get("content-type"), url).toContain(op.mediaType);
          return;
        }
        let parsed: unknown;
        expect(() => (parsed = JSON.parse(text)), `${op.method} ${url} answered non-JSON: ${text.slice(0, 200)}`).not.toThrow();
        assertDocumentedAnswer(response.status, parsed, `${op.method} ${url} ${body?.slice(0, 300) ?? ""} → ${text.slice(0, 300)}`);
      }),
      { numRuns: 30 },
    );
  });
});
