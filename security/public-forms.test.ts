import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { SmtpSink } from "@/lib/testing/smtp-sink";

// A signup form's endpoint (POST /f/<id>/submit) takes anything from anyone, from any site: bots
// fill it in, people type other people's addresses (to subscribe them, or to flood their inbox with
// confirmations), and a curious visitor could ask it which addresses a tenant already has. Its
// double opt-in link is opened by mail scanners before any person reads it.

type Api = typeof import("@/lib/testing/api");
let api: Api;
let db: (typeof import("@/lib/db"))["db"];
let env: (typeof import("@/lib/env"))["env"];
let submit: (typeof import("@/app/f/[id]/submit/route"))["POST"];
let confirmPage: (typeof import("@/app/f/confirm/[token]/page"))["default"];
let confirm: (typeof import("@/app/f/confirm/[token]/yes/route"))["POST"];
let signedIds: (typeof import("@/lib/sending/signed-id"))["signedIds"];
let PEER_HEADER: string;
let sinkInbox: (typeof import("@/lib/testing/sending-fixtures"))["sinkInbox"];
let sink: SmtpSink;

const LIMIT = 6;
let peers = 0;
const peer = () => `198.51.100.${++peers}`;

beforeAll(async () => {
  // env is read when modules load: set the allowance, then load the app afresh in this file's process.
  process.env.FORM_SUBMISSIONS_PER_MINUTE = String(LIMIT);
  vi.resetModules();
  api = await import("@/lib/testing/api");
  ({ db } = await import("@/lib/db"));
  ({ env } = await import("@/lib/env"));
  submit = (await import("@/app/f/[id]/submit/route")).POST;
  confirmPage = (await import("@/app/f/confirm/[token]/page")).default;
  confirm = (await import("@/app/f/confirm/[token]/yes/route")).POST;
  ({ signedIds } = await import("@/lib/sending/signed-id"));
  ({ PEER_HEADER } = await import("@/lib/api/client-address"));
  ({ sinkInbox } = await import("@/lib/testing/sending-fixtures"));
  sink = await (await import("@/lib/testing/smtp-sink")).startSmtpSink();
});
afterAll(() => sink?.close());

function post(formId: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return submit(
    new Request(`${env.appUrl}/f/${formId}/submit`, {
      method: "POST",
      headers: { origin: "https://elsewhere.example", "content-type": "application/json", [PEER_HEADER]: peer(), ...headers },
      body: JSON.stringify(fields),
    }),
    { params: Promise.resolve({ id: formId }) },
  );
}

/** An organization with a double opt-in form (its confirmations are owed, then queued; nothing here sends them). */
async function formOf(name = "Signup") {
  const org = await api.createTestOrg();
  const inbox = await sinkInbox(org.organizationId, sink);
  const form = await org.owner.api.post("/v1/forms", { name, inbox_id: inbox.id });
  expect(form.status).toBe(201);
  return { org, formId: form.body.id as string };
}

/** Confirmation emails to `to`, once the worker has made emails of those owed. */
async function confirmations(organizationId: string, to: string) {
  await (await import("@/lib/services/form-confirmations")).queueDueConfirmations({ organizationIds: [organizationId] });
  return db.email.count({ where: { organization_id: organizationId, to_email: to, tags: { has: "form-confirmation" } } });
}

describe("a public form", () => {
  it("answers alike for a new, an existing and a suppressed address, and changes no existing contact before it confirms", async () => {
    const { org, formId } = await formOf();
    await org.owner.api.post("/v1/contacts", { email: "known@forms.example", first_name: "Known" });
    await db.suppression.create({ data: { organization_id: org.organizationId, email: "bounced@forms.example", reason: "hard_bounce" } });
    const answers = [];
    for (const email of ["new@forms.example", "known@forms.example", "bounced@forms.example"]) {
      const answer = await post(formId, { email, first_name: "Mallory" });
      answers.push({ status: answer.status, body: await answer.text(), headers: [...answer.headers.keys()].sort() });
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    // A stranger cannot unsubscribe, rename or re-subscribe anyone by typing their address.
    expect(await db.contact.findFirst({ where: { organization_id: org.organizationId, email: "known@forms.example" } })).toMatchObject({
      first_name: "Known",
      subscribed: true,
    });
  });

  it("takes a bot that fills the honeypot for a person, and records nothing: no contact, no submission, no email", async () => {
    const { org, formId } = await formOf();
    const person = await post(formId, { email: "person@forms.example" });
    const bot = await post(formId, { email: "bot@forms.example", _hp: "http://spam.example" });
    expect([bot.status, await bot.text()]).toEqual([person.status, await person.text()]);
    expect(await db.contact.count({ where: { organization_id: org.organizationId, email: "bot@forms.example" } })).toBe(0);
    expect(await db.formSubmission.count({ where: { form_id: formId } })).toBe(1);
    expect(await confirmations(org.organizationId, "bot@forms.example")).toBe(0);
  });

  it("subscribes nobody when a mail scanner opens the confirmation link, and once only when the person confirms", async () => {
    const { org, formId } = await formOf();
    await post(formId, { email: "scanned@forms.example" });
    const submission = await db.formSubmission.findFirstOrThrow({ where: { form_id: formId } });
    const token = signedIds("form-confirmation").sign(submission.id);
    // What a scanner does: GET the link (the page), follow nothing else.
    expect(renderToStaticMarkup(await confirmPage({ params: Promise.resolve({ token }) }))).toContain("scanned@forms.example");
    const contact = () => db.contact.findFirstOrThrow({ where: { organization_id: org.organizationId, email: "scanned@forms.example" } });
    expect(await contact()).toMatchObject({ subscribed: false, consent: [] });
    // A token of the same submission under another purpose's key, or altered, confirms nothing.
    for (const bad of [signedIds("preference-token").sign(submission.id), `${token.slice(0, -3)}AAA`]) {
      const answer = await confirm(new Request(`${env.appUrl}/f/confirm/${bad}/yes`, { method: "POST", headers: { [PEER_HEADER]: peer() } }), {
        params: Promise.resolve({ token: bad }),
      });
      expect(answer.status).toBe(404);
    }
    expect((await contact()).subscribed).toBe(false);
    for (let i = 0; i < 2; i++) {
      await confirm(new Request(`${env.appUrl}/f/confirm/${token}/yes`, { method: "POST", headers: { [PEER_HEADER]: peer() } }), {
        params: Promise.resolve({ token }),
      });
    }
    expect(await contact()).toMatchObject({ subscribed: true, consent: [{ source: "form", form_id: formId }] });
  });

  it("sends one address at most 3 confirmations an hour, whatever the forms and client addresses", async () => {
    const { org, formId } = await formOf("One");
    const second = await org.owner.api.post("/v1/forms", { name: "Two", inbox_id: (await db.form.findUniqueOrThrow({ where: { id: formId } })).inbox_id });
    for (let i = 0; i < 6; i++) expect((await post(i % 2 ? second.body.id : formId, { email: "victim@forms.example" })).status).toBe(200);
    expect(await confirmations(org.organizationId, "victim@forms.example")).toBe(3);
  });

  it("refuses a client address past FORM_SUBMISSIONS_PER_MINUTE whatever X-Forwarded-For says, without an error page", async () => {
    const { org, formId } = await formOf();
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 3; i++) {
      const answer = await post(formId, { email: `burst-${i}@forms.example` }, { [PEER_HEADER]: "203.0.113.50", "x-forwarded-for": `10.1.${i}.1` });
      statuses.push(answer.status);
    }
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(LIMIT + 1);
    expect(statuses.at(-1)).toBe(429);
    expect(await db.formSubmission.count({ where: { form_id: formId } })).toBe(statuses.filter((s) => s === 200).length);
    expect(await db.contact.count({ where: { organization_id: org.organizationId } })).toBe(statuses.filter((s) => s === 200).length);
  });

  it("confirms at most FORM_SUBMISSIONS_PER_MINUTE times a minute from one client address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 3; i++) {
      const token = signedIds("form-confirmation").sign(crypto.randomUUID());
      const answer = await confirm(new Request(`${env.appUrl}/f/confirm/${token}/yes`, { method: "POST", headers: { [PEER_HEADER]: "203.0.113.60" } }), {
        params: Promise.resolve({ token }),
      });
      statuses.push(answer.status);
    }
    expect(statuses.filter((s) => s === 404).length).toBeLessThanOrEqual(LIMIT + 1);
    expect(statuses.at(-1)).toBe(429);
  });

  it("lets any site post and read the answer, with no credentials: a cookie is never read, the answer never allows one", async () => {
    const { org, formId } = await formOf();
    const cookie = await api.sessionCookie({ userId: org.owner.userId, email: org.owner.email });
    const answer = await post(formId, { email: "cors@forms.example" }, { cookie, origin: "https://evil.example" });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    expect(answer.headers.get("access-control-allow-credentials")).toBeNull();
    expect(await answer.json()).toEqual({ success: true, double_opt_in: true });
  });

  it("takes a redirect address of http or https only", async () => {
    const { org, formId } = await formOf();
    for (const url of ["javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "//evil.example/"]) {
      api.expectError(await org.owner.api.put(`/v1/forms/${formId}`, { redirect_url: url }), 400, "VALIDATION_ERROR");
    }
  });
});
