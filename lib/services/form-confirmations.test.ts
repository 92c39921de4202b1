import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as submit } from "@/app/f/[id]/submit/route";
import { PEER_HEADER } from "@/lib/api/client-address";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { createTestOrg } from "@/lib/testing/api";
import { sinkInbox } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { queueDueConfirmations } from "./form-confirmations";

const post = (formId: string, email: string) =>
  submit(
    new Request(`${env.appUrl}/f/${formId}/submit`, {
      method: "POST",
      headers: { "content-type": "application/json", [PEER_HEADER]: `192.0.2.${Math.floor(Math.random() * 250) + 1}-${randomUUID().slice(0, 6)}` },
      body: JSON.stringify({ email }),
    }),
    { params: Promise.resolve({ id: formId }) },
  );

const confirmationsTo = (organizationId: string, to?: string) =>
  db.email.count({ where: { organization_id: organizationId, tags: { has: "form-confirmation" }, ...(to ? { to_email: to } : {}) } });

/** An organization with a double opt-in form sending from an inbox on the sink. */
async function formOf(sink: SmtpSink) {
  const org = await createTestOrg();
  const inbox = await sinkInbox(org.organizationId, sink);
  const form = await org.owner.api.post("/v1/forms", { name: "Signup", inbox_id: inbox.id });
  expect(form.status).toBe(201);
  return { org, formId: form.body.id as string, inbox };
}

// A submission with double opt-in owes a confirmation email; the public endpoint only records that
// (a row of form_confirmations, in the submission's statement) and the worker makes the email.
describe("the confirmations signup forms owe", () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(() => sink.close());

  it("are written by the submission, and made emails by the worker once each", async () => {
    const { org, formId } = await formOf(sink);
    for (const email of ["one@confirm.example", "two@confirm.example"]) expect((await post(formId, email)).status).toBe(200);
    // The request rendered and wrote no email.
    expect(await confirmationsTo(org.organizationId)).toBe(0);
    expect(await db.formConfirmation.count({ where: { organization_id: org.organizationId } })).toBe(2);

    expect(await queueDueConfirmations({ organizationIds: [org.organizationId] })).toBe(2);
    expect(await queueDueConfirmations({ organizationIds: [org.organizationId] })).toBe(0);
    expect(await confirmationsTo(org.organizationId, "one@confirm.example")).toBe(1);
    expect(await confirmationsTo(org.organizationId, "two@confirm.example")).toBe(1);
    expect(await db.formConfirmation.count({ where: { organization_id: org.organizationId } })).toBe(0);
    const email = await db.email.findFirstOrThrow({ where: { organization_id: org.organizationId, to_email: "one@confirm.example" } });
    expect(email.status).toBe("queued");
    expect(email.html_content).toMatch(new RegExp(`${env.appUrl.replace(/[.:/]/g, "\\$&")}/f/confirm/[A-Za-z0-9_-]+`));
  });

  it("send the others when one can no longer go, and keep the submissions", async () => {
    const { org, formId } = await formOf(sink);
    for (const email of ["kept@confirm.example", "suppressed-since@confirm.example"]) expect((await post(formId, email)).status).toBe(200);
    // Suppressed between the submission and the worker's round: the batch is refused, then each alone.
    await db.suppression.create({ data: { organization_id: org.organizationId, email: "suppressed-since@confirm.example", reason: "hard_bounce" } });
    const second = await formOf(sink);
    expect((await post(second.formId, "unproven@confirm.example")).status).toBe(200);
    // That form's inbox loses its proof (another domain, never confirmed): nothing it owes can go.
    await db.inbox.update({ where: { id: second.inbox.id }, data: { from_email: "news@unverified.example", sender_confirmed_at: null } });

    expect(await queueDueConfirmations({ organizationIds: [org.organizationId, second.org.organizationId] })).toBe(3);
    expect(await confirmationsTo(org.organizationId, "kept@confirm.example")).toBe(1);
    expect(await confirmationsTo(org.organizationId, "suppressed-since@confirm.example")).toBe(0);
    expect(await confirmationsTo(second.org.organizationId)).toBe(0);
    // Not retried, and the submissions stand.
    expect(await db.formConfirmation.count({ where: { organization_id: { in: [org.organizationId, second.org.organizationId] } } })).toBe(0);
    expect(await db.formSubmission.count({ where: { form_id: { in: [formId, second.formId] } } })).toBe(3);
  });

  it("serve every organization each round: one with hundreds waiting holds back no other", async () => {
    const busy = await formOf(sink);
    const quiet = await formOf(sink);
    // 120 owed by the busy organization, written as the endpoint writes them.
    await db.$executeRaw`
      WITH c AS (
        INSERT INTO contacts (organization_id, email, subscribed)
        SELECT ${busy.org.organizationId}::uuid, 'busy' || g || '@confirm.example', false FROM generate_series(1, 120) g
        RETURNING id, email
      ), s AS (
        INSERT INTO form_submissions (organization_id, form_id, contact_id, values)
        SELECT ${busy.org.organizationId}::uuid, ${busy.formId}::uuid, c.id, jsonb_build_object('email', c.email) FROM c
        RETURNING id
      )
      INSERT INTO form_confirmations (submission_id, organization_id) SELECT id, ${busy.org.organizationId}::uuid FROM s`;
    expect((await post(quiet.formId, "quiet@confirm.example")).status).toBe(200);

    const handled = await queueDueConfirmations({ organizationIds: [busy.org.organizationId, quiet.org.organizationId] });
    expect(await confirmationsTo(quiet.org.organizationId, "quiet@confirm.example")).toBe(1);
    const first = await confirmationsTo(busy.org.organizationId);
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(120);
    expect(handled).toBe(first + 1);
    while ((await queueDueConfirmations({ organizationIds: [busy.org.organizationId] })) > 0);
    expect(await confirmationsTo(busy.org.organizationId)).toBe(120);
  });
});
