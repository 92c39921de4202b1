import { randomUUID } from "node:crypto";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import HostedFormPage from "@/app/f/[id]/page";
import { OPTIONS, POST as submit } from "@/app/f/[id]/submit/route";
import ConfirmPage from "@/app/f/confirm/[token]/page";
import { POST as confirm } from "@/app/f/confirm/[token]/yes/route";
import { PEER_HEADER } from "@/lib/api/client-address";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { queueDueConfirmations } from "@/lib/services/form-confirmations";
import { CONFIRMATIONS_PER_ADDRESS_PER_HOUR } from "@/lib/services/form-submissions";
import { createSender } from "@/lib/sending/sender";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";
import { dispatchEventsOf } from "@/lib/testing/events";
import { config as proxyConfig } from "@/proxy";
import { drain, sinkInbox } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { documentedPayload } from "@/lib/testing/webhook-payloads";
import { addTestWebhook } from "@/lib/testing/webhook-fixtures";

const peer = () => `203.0.113.${Math.floor(Math.random() * 250) + 1}-${randomUUID().slice(0, 6)}`;

/** A submission as another site's page sends it: its Origin, the visitor's address, JSON or a plain form. */
function post(formId: string, fields: Record<string, string>, { json = true, ip = peer() }: { json?: boolean; ip?: string } = {}) {
  const headers: Record<string, string> = { origin: "https://shop.elsewhere.example", [PEER_HEADER]: ip };
  headers["content-type"] = json ? "application/json" : "application/x-www-form-urlencoded";
  const body = json ? JSON.stringify(fields) : new URLSearchParams(fields).toString();
  return submit(new Request(`${env.appUrl}/f/${formId}/submit`, { method: "POST", headers, body }), { params: Promise.resolve({ id: formId }) });
}

const confirmationLink = (mail: SmtpSink["messages"][number]) => /\/f\/confirm\/([A-Za-z0-9_-]+)/.exec(mail.parsed.text ?? "")?.[1];

describe("a public form with double opt-in", () => {
  let sink: SmtpSink;
  let org: TestOrg;
  let formId: string;
  let topicId: string;
  let segmentId: string;

  // The worker's rounds: the confirmations owed made emails (forms:confirmations), then sent.
  const deliver = async () => {
    await queueDueConfirmations({ organizationIds: [org.organizationId] });
    const sender = createSender({ organizationId: org.organizationId });
    await drain(sender, org.organizationId);
    sender.close();
  };
  const contact = (email: string) => db.contact.findFirst({ where: { organization_id: org.organizationId, email } });
  const mailsTo = (email: string) => sink.messages.filter((m) => m.envelopeTo[0] === email);

  beforeAll(async () => {
    sink = await startSmtpSink();
    org = await createTestOrg("Acme Coffee");
    const inbox = await sinkInbox(org.organizationId, sink);
    await addTestWebhook(org.organizationId, [
      "contact.created",
      "contact.updated",
      "contact.subscribed",
      "contact.unsubscribed",
      "contact.topic_subscribed",
      "form.submitted",
    ]);
    topicId = (await org.owner.api.post("/v1/topics", { name: "Roasts", default_subscription: "opt_in" })).body.id;
    segmentId = (await org.owner.api.post("/v1/segments", { name: "Signups" })).body.id;
    const created = await org.owner.api.post("/v1/forms", {
      name: "Coffee letter",
      fields: ["email", "first_name"],
      topic_ids: [topicId],
      segment_id: segmentId,
      inbox_id: inbox.id,
      confirmation_subject: "Confirm, {{first_name|friend}}",
    });
    formId = created.body.id;
  });
  afterAll(() => sink.close());

  it("from another origin, creates an unsubscribed contact, sends the confirmation, and its link subscribes it with a consent record", async () => {
    const answer = await post(formId, { email: "Ada@Example.test", first_name: "Ada", ignored: "x" });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    expect(await answer.json()).toEqual({ success: true, double_opt_in: true });
    const created = await contact("ada@example.test");
    expect(created).toMatchObject({ subscribed: false, first_name: "Ada", consent: [] });
    // The confirmation is owed, not written: the request rendered no email.
    expect(await db.formConfirmation.count({ where: { organization_id: org.organizationId } })).toBe(1);
    expect(await db.email.count({ where: { organization_id: org.organizationId } })).toBe(0);

    await deliver();
    const [mail] = mailsTo("ada@example.test");
    expect(mail.parsed.subject).toBe("Confirm, Ada");
    expect(mail.parsed.text).toContain("Acme Coffee");
    const token = confirmationLink(mail)!;
    expect(token).toBeTruthy();

    // Opening the link shows a button and changes nothing (mail scanners open links).
    const page = renderToStaticMarkup(await ConfirmPage({ params: Promise.resolve({ token }) }));
    expect(page).toContain("ada@example.test");
    expect(page).toContain(`action="/f/confirm/${token}/yes"`);
    expect((await contact("ada@example.test"))?.subscribed).toBe(false);

    const yes = () =>
      confirm(new Request(`${env.appUrl}/f/confirm/${token}/yes`, { method: "POST", headers: { [PEER_HEADER]: "198.51.100.7" } }), {
        params: Promise.resolve({ token }),
      });
    expect((await yes()).status).toBe(303);
    const subscribed = await org.owner.api.get(`/v1/contacts/${created!.id}`);
    expect(subscribed.body.subscribed).toBe(true);
    expect(subscribed.body.consent).toEqual([{ source: "form", at: expect.any(String), ip: "198.51.100.7", form_id: formId }]);
    expect((await org.owner.api.get(`/v1/contacts/${created!.id}/topics`)).body).toEqual([{ topic_id: topicId, name: "Roasts", subscribed: true }]);
    expect(await db.segmentContact.count({ where: { segment_id: segmentId, contact_id: created!.id } })).toBe(1);
    // Once only.
    expect((await yes()).status).toBe(303);
    // Each fact is one event of the contact's timeline (GET /v1/contacts/{id}/events, newest first): the
    // submission (automations start from form.submitted), its email, then the confirmation, none twice.
    const timeline = await org.owner.api.get(`/v1/contacts/${created!.id}/events?limit=100`);
    const recorded = (timeline.body.data as { id: string; name: string; source: string; properties: unknown }[]).reverse();
    expect(recorded.map((e) => [e.name, e.source, e.properties])).toEqual([
      ["contact.created", "forms", {}],
      ["form.submitted", "forms", { form_id: formId, form_name: "Coffee letter" }],
      ["email.sent", "sending", {}], // the confirmation email
      ["contact.updated", "forms", { changed: ["subscribed"] }],
      ["contact.subscribed", "forms", { reason: "form", form_id: formId }],
      ["contact.topic_subscribed", "forms", { topic_id: topicId, topic_name: "Roasts" }],
    ]);
    // And announced once: the webhook gets one delivery of each event of a type it subscribes to.
    await dispatchEventsOf(org.organizationId);
    const deliveries = await db.webhookDelivery.findMany({ where: { organization_id: org.organizationId, event_id: { in: recorded.map((e) => e.id) } } });
    expect(deliveries.map((d) => d.event_type).sort()).toEqual([
      "contact.created",
      "contact.subscribed",
      "contact.topic_subscribed",
      "contact.updated",
      "form.submitted",
    ]);
    // The submission and the topic chosen: the contact as it is, with the form or the topic.
    expect(documentedPayload(deliveries.find((d) => d.event_type === "form.submitted")?.payload)).toMatchObject({
      type: "form.submitted",
      data: { id: created!.id, email: "ada@example.test", form_id: formId, form_name: "Coffee letter" },
    });
    expect(documentedPayload(deliveries.find((d) => d.event_type === "contact.topic_subscribed")?.payload)).toMatchObject({
      type: "contact.topic_subscribed",
      data: { id: created!.id, topic_id: topicId, topic_name: "Roasts" },
    });
    for (const type of ["contact.updated", "contact.subscribed"]) {
      expect(documentedPayload(deliveries.find((d) => d.event_type === type)?.payload)).toMatchObject({
        type,
        data: { id: created!.id, subscribed: true, consent: [{ source: "form", form_id: formId }] },
      });
    }
    expect((await contact("ada@example.test"))?.consent).toHaveLength(1);
    expect(renderToStaticMarkup(await ConfirmPage({ params: Promise.resolve({ token }) }))).toContain("You are subscribed");
    const form = await org.owner.api.get(`/v1/forms/${formId}`);
    expect(form.body).toMatchObject({ submissions_count: 1, confirmed_count: 1 });
  });

  it("leaves an existing contact's data alone until it confirms", async () => {
    await org.owner.api.post("/v1/contacts", { email: "bob@example.test", first_name: "Bob", subscribed: false });
    expect((await post(formId, { email: "bob@example.test", first_name: "Mallory" })).status).toBe(200);
    expect(await contact("bob@example.test")).toMatchObject({ first_name: "Bob", subscribed: false });
    await deliver();
    const token = confirmationLink(mailsTo("bob@example.test")[0])!;
    await confirm(new Request(`${env.appUrl}/f/confirm/${token}/yes`, { method: "POST" }), { params: Promise.resolve({ token }) });
    expect(await contact("bob@example.test")).toMatchObject({ first_name: "Mallory", subscribed: true });
  });

  it("answers a plain HTML form with redirects: the thank-you page, or back to the page naming the field", async () => {
    const ok = await post(formId, { email: "carol@example.test" }, { json: false });
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe(`/f/${formId}?submitted=1`);
    const thanks = renderToStaticMarkup(await HostedFormPage({ params: Promise.resolve({ id: formId }), searchParams: Promise.resolve({ submitted: "1" }) }));
    expect(thanks).toContain("Check your inbox");
    const bad = await post(formId, { email: "not an address" }, { json: false });
    expect(bad.headers.get("location")).toBe(`/f/${formId}?invalid=email`);
    const hosted = renderToStaticMarkup(await HostedFormPage({ params: Promise.resolve({ id: formId }), searchParams: Promise.resolve({ invalid: "email" }) }));
    expect(hosted).toContain("Please enter a valid email address.");
    expect(hosted).toContain(`action="/f/${formId}/submit"`);
    const json = await post(formId, { first_name: "No email" });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ code: "VALIDATION_ERROR", details: [{ path: "email", message: "is required" }] });
  });

  it("takes the honeypot's bots for people in its answer, and records nothing", async () => {
    const before = await db.formSubmission.count({ where: { form_id: formId } });
    const answer = await post(formId, { email: "bot@example.test", _hp: "https://spam.example" });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ success: true, double_opt_in: true });
    expect(await contact("bot@example.test")).toBeNull();
    expect(await db.formSubmission.count({ where: { form_id: formId } })).toBe(before);
  });

  it("refuses past the rate limit of a client address with 429, a page or JSON, not an error page", async () => {
    const ip = peer();
    // Until the first refusal: the burst is let through whole, however slowly the machine runs.
    let allowed = 0;
    let page: Response | null = null;
    for (let i = 0; i < env.formSubmissionsPerMinute + 100 && !page; i++) {
      const answer = await post(formId, { email: `many-${i}@example.test` }, { ip, json: false });
      if (answer.status === 429) page = answer;
      else {
        expect(answer.status).toBe(303);
        allowed++;
      }
    }
    expect(allowed).toBeGreaterThanOrEqual(env.formSubmissionsPerMinute);
    expect(page).not.toBeNull();
    expect(page!.headers.get("content-type")).toContain("text/html");
    expect(page!.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await page!.text()).toContain("please try again");
    const refused = await post(formId, { email: "late@example.test" }, { ip });
    expect(await refused.json()).toMatchObject({ code: "RATE_LIMITED" });
    expect(await contact("late@example.test")).toBeNull();
    // Another address is not held back.
    expect((await post(formId, { email: "other-ip@example.test" })).status).toBe(200);
  });

  it(`sends one address at most ${CONFIRMATIONS_PER_ADDRESS_PER_HOUR} confirmations an hour, and none to a suppressed one`, async () => {
    for (let i = 0; i < CONFIRMATIONS_PER_ADDRESS_PER_HOUR + 2; i++) expect((await post(formId, { email: "flood@example.test" })).status).toBe(200);
    await db.suppression.create({ data: { organization_id: org.organizationId, email: "gone@example.test", reason: "hard_bounce" } });
    expect((await post(formId, { email: "gone@example.test" })).status).toBe(200);
    await queueDueConfirmations({ organizationIds: [org.organizationId] });
    const queued = (to: string) => db.email.count({ where: { organization_id: org.organizationId, to_email: to, tags: { has: "form-confirmation" } } });
    expect(await queued("flood@example.test")).toBe(CONFIRMATIONS_PER_ADDRESS_PER_HOUR);
    expect(await queued("gone@example.test")).toBe(0);
  });

  it("answers a CORS preflight, 404 for an unknown form, and 404 for a forged or expired confirmation", async () => {
    const preflight = OPTIONS();
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toContain("content-type");
    expect((await post(randomUUID(), { email: "x@example.test" })).status).toBe(404);
    expect((await post("not-a-form", { email: "x@example.test" }, { json: false })).status).toBe(404);
    for (const token of ["forged", "A".repeat(43)]) {
      await expect(ConfirmPage({ params: Promise.resolve({ token }) })).rejects.toMatchObject({ digest: expect.stringContaining("404") });
      expect((await confirm(new Request(`${env.appUrl}/f/confirm/${token}/yes`, { method: "POST" }), { params: Promise.resolve({ token }) })).status).toBe(404);
    }
    await post(formId, { email: "late-confirm@example.test" });
    await deliver();
    const token = confirmationLink(mailsTo("late-confirm@example.test")[0])!;
    await db.formSubmission.updateMany({
      where: { contact: { email: "late-confirm@example.test" } },
      data: { created_at: new Date(Date.now() - 8 * 86_400_000) },
    });
    expect(renderToStaticMarkup(await ConfirmPage({ params: Promise.resolve({ token }) }))).toContain("expired");
    await confirm(new Request(`${env.appUrl}/f/confirm/${token}/yes`, { method: "POST" }), { params: Promise.resolve({ token }) });
    expect((await contact("late-confirm@example.test"))?.subscribed).toBe(false);
  });
});

describe("a public form without double opt-in", () => {
  it("subscribes at once, with typed properties converted and a consent record", async () => {
    const org = await createTestOrg();
    await org.owner.api.post("/v1/contact-properties", { key: "seats", type: "number" });
    const form = (await org.owner.api.post("/v1/forms", { name: "Open", double_opt_in: false, fields: ["email", "seats"] })).body;
    expect((await post(form.id, { email: "open@example.test", seats: "12" }, { json: false, ip: "192.0.2.44" })).status).toBe(303);
    const row = await db.contact.findFirstOrThrow({ where: { organization_id: org.organizationId, email: "open@example.test" } });
    expect(row).toMatchObject({ subscribed: true, metadata: { seats: 12 } });
    expect(row.consent).toEqual([{ source: "form", at: expect.any(String), ip: "192.0.2.44", form_id: form.id }]);
    const bad = await post(form.id, { email: "open2@example.test", seats: "twelve" });
    expect(await bad.json()).toMatchObject({ details: [{ path: "seats", message: "must be a number" }] });
  });
});

describe("the form the endpoint takes submissions for", () => {
  it("is read again when changed or deleted through the API, and a form deleted elsewhere answers 404, writing nothing", async () => {
    const org = await createTestOrg();
    const form = (await org.owner.api.post("/v1/forms", { name: "Kept", double_opt_in: false, fields: ["email"] })).body;
    const firstName = async (email: string) =>
      (await db.contact.findFirst({ where: { organization_id: org.organizationId, email }, select: { first_name: true } }))?.first_name;
    expect((await post(form.id, { email: "first@example.test", first_name: "Ann" })).status).toBe(200);
    expect(await firstName("first@example.test")).toBeNull();
    // Changed through the API (this process): the next submission follows it.
    expect((await org.owner.api.put(`/v1/forms/${form.id}`, { fields: ["email", "first_name"] })).status).toBe(200);
    expect((await post(form.id, { email: "second@example.test", first_name: "Bo" })).status).toBe(200);
    expect(await firstName("second@example.test")).toBe("Bo");
    // Deleted by another process (behind this one's back): the submission's statement finds it gone.
    await db.form.delete({ where: { id: form.id } });
    const gone = await post(form.id, { email: "third@example.test" });
    expect(gone.status).toBe(404);
    expect(await db.contact.count({ where: { organization_id: org.organizationId, email: "third@example.test" } })).toBe(0);
  });
});

describe("the public endpoint's body", () => {
  it("is read up to 16 KB (413 past it, as a page or JSON), outside the proxy that would buffer all of it", async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= 10 * 1024 * 1024) return controller.close();
        pulled += 8192;
        controller.enqueue(new Uint8Array(8192).fill(0x61));
      },
    });
    const id = randomUUID();
    const response = await submit(
      new Request(`${env.appUrl}/f/${id}/submit`, { method: "POST", headers: { [PEER_HEADER]: peer() }, body, duplex: "half" } as RequestInit),
      { params: Promise.resolve({ id }) },
    );
    expect(response.status).toBe(413);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(pulled).toBeLessThanOrEqual(32 * 1024);
    const matchers = proxyConfig.matcher.map((source) => new RegExp(`^${source.replace("/:path(.*%.*)", "/.*%.*")}$`));
    expect(matchers.some((m) => m.test(`/f/${id}/submit`))).toBe(false);
    expect(matchers.some((m) => m.test(`/f/${id}`))).toBe(true);
  });
});
