import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import PreferencesPage from "@/app/p/[token]/page";
import { POST as save } from "@/app/p/[token]/save/route";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";
import { dispatchEventsOf } from "@/lib/testing/events";
import { config as proxyConfig } from "@/proxy";
import { drain, sinkInbox } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { startBroadcast } from "./fan-out";
import { readPreferenceToken } from "./preference-token";
import { createSender } from "./sender";
import { unsubscribeToken } from "./unsubscribe-token";
import { addTestWebhook } from "@/lib/testing/webhook-fixtures";

// decisions.md, "Consent": every marketing email links /p/<token>, a page of the organization's
// topics with switches and "unsubscribe from everything"; the token names one contact and cannot be forged.
describe("the preference page", () => {
  let sink: SmtpSink;
  let org: TestOrg;
  let contactId: string;
  const topics: Record<string, string> = {};
  let token: string;

  const page = async (t: string, search: Record<string, string> = {}) =>
    renderToStaticMarkup(await PreferencesPage({ params: Promise.resolve({ token: t }), searchParams: Promise.resolve(search) }));
  const post = (t: string, form: [string, string][]) =>
    save(
      new Request(`${env.appUrl}/p/${t}/save`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(form).toString(),
      }),
      { params: Promise.resolve({ token: t }) },
    );
  const received = (t: string) =>
    org.owner.api
      .get(`/v1/contacts/${contactId}/topics`)
      .then((r) => (r.body as { topic_id: string; subscribed: boolean }[]).find((x) => x.topic_id === t)?.subscribed);

  beforeAll(async () => {
    sink = await startSmtpSink();
    org = await createTestOrg("Acme Mail & Co");
    const inbox = await sinkInbox(org.organizationId, sink);
    await addTestWebhook(org.organizationId, ["contact.unsubscribed"]);
    topics.news = (await org.owner.api.post("/v1/topics", { name: "Product news", description: "Once a month", default_subscription: "opt_out" })).body.id;
    topics.events = (await org.owner.api.post("/v1/topics", { name: "Events", default_subscription: "opt_in" })).body.id;
    contactId = (await org.owner.api.post("/v1/contacts", { email: "reader@example.test", first_name: "Rea" })).body.id;
    const segment = (await org.owner.api.post("/v1/segments", { name: "Readers" })).body.id;
    await org.owner.api.post(`/v1/segments/${segment}/contacts`, { contact_ids: [contactId] });
    const broadcast = await org.owner.api.post("/v1/broadcasts", {
      name: "News",
      subject: "News",
      html_content: "<html><body><p>Hello</p></body></html>",
      inbox_id: inbox.id,
      segment_id: segment,
      topic_id: topics.news,
      sending_speed: "instant",
    });
    await org.owner.api.post(`/v1/broadcasts/${broadcast.body.id}/send`, {});
    expect(await startBroadcast(broadcast.body.id)).toBe("started");
    const sender = createSender({ organizationId: org.organizationId });
    await drain(sender, org.organizationId);
    sender.close();
  });
  afterAll(() => sink.close());

  it("is linked beside the unsubscribe link, in the HTML and the text of the received email", () => {
    const mail = sink.messages.find((m) => m.envelopeTo[0] === "reader@example.test")!;
    const link = new RegExp(`${env.appUrl.replace(/[.:/]/g, "\\$&")}/p/([A-Za-z0-9_-]+)`).exec(mail.parsed.text ?? "");
    expect(link).not.toBeNull();
    token = link![1];
    expect(readPreferenceToken(token)).toBe(contactId);
    expect(mail.parsed.html).toContain(`href="${env.appUrl}/p/${token}"`);
    expect(mail.parsed.html).toContain("Manage preferences");
    expect(mail.parsed.text).toContain(`Manage preferences: ${env.appUrl}/p/${token}`);
    expect(mail.parsed.text).toContain(`Unsubscribe: ${env.appUrl}/u/`);
  });

  it("shows the organization's topics with their state, and opening it changes nothing", async () => {
    const before = await db.event.count({ where: { contact_id: contactId } });
    const html = await page(token);
    expect(html).toContain("Acme Mail &amp; Co");
    expect(html).toContain("reader@example.test");
    const switchOf = (id: string) => new RegExp(`<input type="checkbox" role="switch"[^>]*value="${id}"/>`).exec(html)?.[0] ?? "";
    expect(html).toMatch(/Product news.*Once a month/s);
    expect(switchOf(topics.news)).toContain('checked=""');
    expect(switchOf(topics.events)).not.toBe("");
    expect(switchOf(topics.events)).not.toContain(`checked=""`);
    expect(html).toContain(`action="/p/${token}/save"`);
    expect(await db.event.count({ where: { contact_id: contactId } })).toBe(before);
  });

  it("records the switches as choices the API answers, with an event per change", async () => {
    const response = await post(token, [
      ["shown", topics.news],
      ["shown", topics.events],
      ["on", topics.events],
      ["action", "save"],
    ]);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/p/${token}?saved=1`);
    expect(await received(topics.news)).toBe(false);
    expect(await received(topics.events)).toBe(true);
    // Each change is one event of the contact's timeline (GET /v1/contacts/{id}/events), recorded once.
    const timeline = (await org.owner.api.get(`/v1/contacts/${contactId}/events?limit=100`)).body.data as {
      name: string;
      source: string;
      properties: unknown;
    }[];
    expect(timeline.filter((e) => e.source === "preferences").map((e) => [e.name, e.properties])).toEqual([
      ["contact.topic_subscribed", { topic_id: topics.events, topic_name: "Events" }],
      ["contact.topic_unsubscribed", { topic_id: topics.news, topic_name: "Product news" }],
    ]);
    expect(await page(token, { saved: "1" })).toContain("Your preferences are saved.");
    // A topic id the page never showed (another organization's) is not taken from the form.
    const other = await createTestOrg();
    const foreign = (await other.owner.api.post("/v1/topics", { name: "Theirs", default_subscription: "opt_in" })).body.id;
    expect(
      (
        await post(token, [
          ["shown", foreign],
          ["on", foreign],
        ])
      ).status,
    ).toBe(303);
    expect(await db.contactTopic.count({ where: { topic_id: foreign } })).toBe(0);
  });

  it("unsubscribes from everything", async () => {
    expect((await post(token, [["action", "unsubscribe_all"]])).headers.get("location")).toBe(`/p/${token}?saved=all`);
    const contact = await org.owner.api.get(`/v1/contacts/${contactId}`);
    expect(contact.body.subscribed).toBe(false);
    expect(contact.body.unsubscribed_at).not.toBeNull();
    expect(await page(token, { saved: "all" })).toContain("You are unsubscribed from all emails of Acme Mail &amp; Co.");
    // One event, on the timeline and announced once: the webhook's delivery carries the contact as it is now.
    const timeline = (await org.owner.api.get(`/v1/contacts/${contactId}/events?limit=100`)).body.data as { id: string; name: string; source: string }[];
    const unsubscribed = timeline.filter((e) => e.name === "contact.unsubscribed");
    expect(unsubscribed.map((e) => [e.source, (e as { properties?: unknown }).properties])).toEqual([["preferences", { reason: "preferences" }]]);
    expect((await post(token, [["action", "unsubscribe_all"]])).status).toBe(303); // again: nothing more
    expect(await db.event.count({ where: { contact_id: contactId, name: "contact.unsubscribed" } })).toBe(1);
    await dispatchEventsOf(org.organizationId);
    const deliveries = await db.webhookDelivery.findMany({ where: { organization_id: org.organizationId, event_id: unsubscribed[0].id } });
    expect(deliveries.map((d) => d.payload)).toEqual([
      expect.objectContaining({ type: "contact.unsubscribed", data: expect.objectContaining({ id: contactId, subscribed: false }) }),
    ]);
  });

  it("answers 404 for a forged, altered or other-purpose token, and for a deleted contact", async () => {
    const altered = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`;
    for (const bad of [altered, unsubscribeToken(contactId), "x", `${token}A`]) {
      await expect(page(bad)).rejects.toMatchObject({ digest: expect.stringContaining("404") });
      expect((await post(bad, [["action", "unsubscribe_all"]])).status).toBe(404);
    }
    const gone = (await org.owner.api.post("/v1/contacts", { email: "gone@example.test" })).body.id;
    const { preferenceToken } = await import("./preference-token");
    await org.owner.api.delete(`/v1/contacts/${gone}`);
    await expect(page(preferenceToken(gone))).rejects.toMatchObject({ digest: expect.stringContaining("404") });
  });

  it("reads at most its limit of a body, outside the proxy (which would buffer all of it first)", async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= 10 * 1024 * 1024) return controller.close();
        pulled += 8192;
        controller.enqueue(new Uint8Array(8192).fill(0x61));
      },
    });
    const response = await save(new Request(`${env.appUrl}/p/${token}/save`, { method: "POST", body, duplex: "half" } as RequestInit), {
      params: Promise.resolve({ token }),
    });
    expect(response.status).toBe(413);
    expect(pulled).toBeLessThanOrEqual(300 * 1024);
    const matchers = proxyConfig.matcher.map((source) => new RegExp(`^${source.replace("/:path(.*%.*)", "/.*%.*")}$`));
    expect(matchers.some((m) => m.test(`/p/${token}/save`))).toBe(false);
    expect(matchers.some((m) => m.test(`/p/${token}`))).toBe(true);
  });
});
