import { randomUUID } from "node:crypto";
import pg from "pg";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import type { OrgContext } from "@/lib/domain/context";
import { AppError } from "@/lib/domain/errors";
import { addDomain } from "@/lib/services/domains";
import { submitEmail } from "@/lib/services/send-emails";
import type { EmailRequest } from "@/lib/services/transactional";
import { createTestOrg } from "@/lib/testing/api";
import { GroupCommit } from "./group-commit";

// SMTP submission's group commit against a real PostgreSQL: the messages of a key submitted in one
// turn of the event loop are checked and written by one statement, and each hears the answer
// POST /v1/emails would give it alone. Round trips are counted at the one door every query of the
// process goes through (pg's Client#query: plain pg's pools and Prisma's adapter alike).

let ctx: OrgContext;
let domain: string;

beforeAll(async () => {
  const org = await createTestOrg();
  domain = `group-${randomUUID().slice(0, 8)}.example.com`;
  await addDomain(org.organizationId, domain, { verified: true });
  const key = await db.apiKey.findFirstOrThrow({ where: { organization_id: org.organizationId } });
  ctx = {
    userId: org.owner.userId,
    userEmail: org.owner.email,
    apiKeyId: key.id,
    organizationId: org.organizationId,
    role: "owner",
    keyScope: { permission: "full_access", domain: null },
  };
});

const message = (to: string, fields: Partial<EmailRequest["input"]> = {}): EmailRequest => ({
  input: { from: `App <app@${domain}>`, to: [to], subject: "Receipt", text: "Thanks", html: "<p>Thanks</p>", ...fields },
  attachments: [],
});

/** Submits the messages in one turn (one group) and counts the queries sent to PostgreSQL until all are answered. */
async function submitTogether(messages: { request: EmailRequest; key: string | null }[]) {
  const commits = new GroupCommit();
  const queries = vi.spyOn(pg.Client.prototype, "query");
  try {
    const answers = await Promise.allSettled(messages.map((m) => commits.submit(ctx, m.request, m.key)));
    return { answers, roundTrips: queries.mock.calls.length };
  } finally {
    queries.mockRestore();
  }
}

const idOf = (answer: PromiseSettledResult<{ id: string }>) => (answer.status === "fulfilled" ? answer.value.id : `refused: ${String(answer.reason)}`);
const refusalOf = (answer: PromiseSettledResult<{ id: string }>) => {
  if (answer.status !== "rejected") throw new Error(`expected a refusal, got ${JSON.stringify(answer)}`);
  return answer.reason as AppError;
};
const sameRefusal = (error: AppError) => ({ code: error.code, message: error.message, details: error.details });

describe("SMTP submission's group commit", () => {
  it("writes a group of twenty messages, their keys, threads and emails, in one statement", async () => {
    const tag = randomUUID().slice(0, 6);
    const messages = Array.from({ length: 20 }, (_, i) => ({ request: message(`many-${tag}-${i}@example.net`), key: `smtp:<${tag}-${i}@app>` }));
    const { answers, roundTrips } = await submitTogether(messages);

    expect(roundTrips).toBe(1);
    const ids = answers.map(idOf);
    const emails = await db.email.findMany({ where: { organization_id: ctx.organizationId, id: { in: ids } }, include: { thread: true } });
    expect(emails).toHaveLength(20);
    for (const [i, id] of ids.entries()) {
      const email = emails.find((e) => e.id === id)!;
      expect(email).toMatchObject({
        to_email: `many-${tag}-${i}@example.net`,
        idempotency_key: `smtp:<${tag}-${i}@app>`,
        status: "queued",
        api_key_id: ctx.apiKeyId,
      });
      expect(email.message_id).toBe(`<${id}@${domain}>`);
      expect(email.thread).toMatchObject({ subject: "Receipt" });
    }
    const keys = await db.idempotencyKey.findMany({ where: { organization_id: ctx.organizationId, key: { startsWith: `smtp:<${tag}-` } } });
    expect(keys.map((k) => (k.response as { id: string }).id).sort()).toEqual([...ids].sort());
  });

  it("answers each message for itself, as POST /v1/emails would alone: a suppressed recipient and an unverified domain refuse their own message only", async () => {
    const tag = randomUUID().slice(0, 6);
    await db.suppression.create({ data: { organization_id: ctx.organizationId, email: `gone-${tag}@example.net`, reason: "hard_bounce" } });
    const suppressed = message(`ok-${tag}-s@example.net`, { bcc: [`Gone-${tag}@example.net`] });
    const unverified = message(`ok-${tag}-u@example.net`, { from: "app@unverified.example" });
    const messages = [
      { request: message(`ok-${tag}-0@example.net`), key: `smtp:<${tag}-0@app>` },
      { request: suppressed, key: `smtp:<${tag}-s@app>` },
      { request: message(`ok-${tag}-1@example.net`), key: null },
      { request: unverified, key: `smtp:<${tag}-u@app>` },
      { request: message(`ok-${tag}-2@example.net`), key: `smtp:<${tag}-2@app>` },
    ];
    const { answers, roundTrips } = await submitTogether(messages);

    expect(roundTrips).toBe(1);
    expect([0, 2, 4].map((i) => answers[i].status)).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
    const alone = async (request: EmailRequest) =>
      submitEmail(ctx, request, null).then(
        () => new Error("sent"),
        (error: AppError) => error,
      );
    expect(refusalOf(answers[1]).code).toBe("RECIPIENT_SUPPRESSED");
    expect(sameRefusal(refusalOf(answers[1]))).toEqual(sameRefusal((await alone(suppressed)) as AppError));
    expect(refusalOf(answers[3]).code).toBe("DOMAIN_NOT_VERIFIED");
    expect(sameRefusal(refusalOf(answers[3]))).toEqual(sameRefusal((await alone(unverified)) as AppError));

    const written = await db.email.findMany({
      where: { organization_id: ctx.organizationId, to_email: { startsWith: `ok-${tag}-` } },
      select: { to_email: true },
    });
    expect(written.map((e) => e.to_email).sort()).toEqual([0, 1, 2].map((i) => `ok-${tag}-${i}@example.net`));
    // A refused message's key is not taken: the same message goes once the address is no longer suppressed.
    expect(await db.idempotencyKey.count({ where: { organization_id: ctx.organizationId, key: { in: [`smtp:<${tag}-s@app>`, `smtp:<${tag}-u@app>`] } } })).toBe(
      0,
    );
    await db.suppression.deleteMany({ where: { organization_id: ctx.organizationId, email: `gone-${tag}@example.net` } });
    const again = await submitTogether([{ request: suppressed, key: `smtp:<${tag}-s@app>` }]);
    expect(again.answers[0].status).toBe("fulfilled");
  });

  it("answers a repeated Message-ID with the first email's id, before any check, and a different message under it with a conflict", async () => {
    const tag = randomUUID().slice(0, 6);
    const messages = [0, 1, 2].map((i) => ({ request: message(`again-${tag}-${i}@example.net`), key: `smtp:<${tag}-${i}@app>` }));
    const first = await submitTogether(messages);
    // Suppressed since: POST /v1/emails replays a key before it checks, and so does the group.
    await db.suppression.create({ data: { organization_id: ctx.organizationId, email: `again-${tag}-1@example.net`, reason: "complaint" } });

    const changed = { request: message(`again-${tag}-0@example.net`, { subject: "Another receipt" }), key: messages[0].key };
    const repeat = await submitTogether([...messages.slice(1), { request: message(`again-${tag}-3@example.net`), key: `smtp:<${tag}-3@app>` }, changed]);

    expect(repeat.roundTrips).toBe(1);
    expect(repeat.answers.slice(0, 2).map(idOf)).toEqual(first.answers.slice(1).map(idOf));
    expect(repeat.answers[2].status).toBe("fulfilled");
    expect(refusalOf(repeat.answers[3]).code).toBe("CONFLICT");
    const written = await db.email.findMany({
      where: { organization_id: ctx.organizationId, to_email: { startsWith: `again-${tag}-` } },
      select: { subject: true },
    });
    expect(written).toHaveLength(4);
    expect(written.every((e) => e.subject === "Receipt")).toBe(true);
  });

  it("fills contact placeholders from the recipient's contact, reading the contacts first (one round trip more), and links every email to its contact", async () => {
    const tag = randomUUID().slice(0, 6);
    const contact = await db.contact.create({ data: { organization_id: ctx.organizationId, email: `ada-${tag}@example.net`, first_name: "Ada" } });
    const messages = [
      { request: message(`Ada-${tag}@example.net`, { subject: "Hello {{first_name|there}}", text: "Hi {{ first_name }}" }), key: null },
      { request: message(`bob-${tag}@example.net`, { subject: "Hello {{first_name|there}}" }), key: null },
      { request: message(`ada-${tag}@example.net`, { subject: "Plain" }), key: null },
    ];
    const { answers, roundTrips } = await submitTogether(messages);

    expect(roundTrips).toBe(2);
    const emails = await Promise.all(answers.map((a) => db.email.findFirstOrThrow({ where: { organization_id: ctx.organizationId, id: idOf(a) } })));
    expect(emails.map((e) => [e.subject, e.contact_id])).toEqual([
      ["Hello Ada", contact.id],
      ["Hello there", null],
      ["Plain", contact.id],
    ]);
    expect(emails[0].text_content).toBe("Hi Ada");
  });
});
