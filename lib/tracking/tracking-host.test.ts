import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTxtServer, type TxtServer } from "@/lib/dns/txt-server";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";

// Tracking on an organization's own host, end to end: the domain's records published in a real DNS
// server (DNS_RESOLVER), verified through the API, mail sent by the worker's sender to a real SMTP
// sink, and its links followed through the tracking handlers with the Host a browser would send.
// lib/env reads the resolver when it loads: the DNS server starts first, the application after it.
let dns: TxtServer;
let sink: SmtpSink;
let db: typeof import("@/lib/db").db;
let env: typeof import("@/lib/env").env;
let fixtures: Pick<typeof import("@/lib/testing/tracking-fixtures"), "trackingTenant" | "sendThroughSink" | "trackingUrlsOf" | "trackingTokenOf">;
let handlers: typeof import("./handlers");
let sending: typeof import("@/lib/testing/sending-fixtures");

beforeAll(async () => {
  dns = await startTxtServer();
  process.env.DNS_RESOLVER = dns.address;
  sink = await startSmtpSink();
  db = (await import("@/lib/db")).db;
  env = (await import("@/lib/env")).env;
  handlers = await import("./handlers");
  const { trackingTenant, sendThroughSink, trackingUrlsOf, trackingTokenOf } = await import("@/lib/testing/tracking-fixtures");
  fixtures = { trackingTenant, sendThroughSink, trackingUrlsOf, trackingTokenOf };
  sending = await import("@/lib/testing/sending-fixtures");
});

afterAll(async () => {
  await sink?.close();
  await dns?.close();
});

type Rec = { purpose: string; type: string; name: string; value: string; status: string; reason: string | null };

const READER = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Thunderbird/128.3.0";
const visit = (url: string, host?: string) => new Request(url, { headers: { "user-agent": READER, ...(host && { host }) } });
const tokenOf = (url: string) => fixtures.trackingTokenOf(url);

const HTML =
  '<html><body><p><a href="https://shop.example/spring?utm_source=partner">Shop</a> <a href="https://shop.example/faq#top">FAQ</a></p></body></html>';
const UTM = { source: "newsletter", medium: "email", campaign: "spring" };

describe("tracking on an organization's own host", () => {
  it("uses the host once its CNAME is verified, with the UTM parameters; opens and clicks on it are recorded", async () => {
    const { org, name, host, created, checked } = await fixtures.trackingTenant(dns, { cname: true });
    expect(created).toMatchObject({ tracking_subdomain: "links", tracking_active: false });
    expect((created.records as Rec[]).find((r) => r.purpose === "tracking")).toMatchObject({
      type: "CNAME",
      name: host,
      value: "localhost",
      status: "pending",
    });
    expect(checked).toMatchObject({ status: "verified", tracking_active: true });
    expect((checked.records as Rec[]).find((r) => r.purpose === "tracking")!.status).toBe("verified");

    const { mail, id } = await fixtures.sendThroughSink(org, sink, {
      from: `news@${name}`,
      html: HTML,
      text: "Shop at https://shop.example/spring.",
      utm: UTM,
    });
    const { redirects, pixel } = fixtures.trackingUrlsOf(mail);
    expect(redirects).toHaveLength(2);
    for (const url of [...redirects, pixel!]) expect(url.startsWith(`https://${host}/t/`)).toBe(true);
    expect(String(mail.parsed.html)).not.toContain(env.appUrl);
    expect(mail.parsed.text).toContain("Shop at https://shop.example/spring?utm_source=newsletter&utm_medium=email&utm_campaign=spring.");

    expect((await handlers.handleOpen(visit(pixel!), tokenOf(pixel!))).status).toBe(200);
    const click = await handlers.handleClick(visit(redirects[0]), tokenOf(redirects[0]));
    expect(click.status).toBe(302);
    // The link's own utm_source kept, the others added.
    expect(click.headers.get("location")).toBe("https://shop.example/spring?utm_source=partner&utm_medium=email&utm_campaign=spring");
    const second = await handlers.handleClick(visit(redirects[1]), tokenOf(redirects[1]));
    expect(second.headers.get("location")).toBe("https://shop.example/faq?utm_source=newsletter&utm_medium=email&utm_campaign=spring#top");
    // The platform's own host serves every organization's links too.
    const onPlatform = await handlers.handleClick(visit(`${env.appUrl}/t/c/${tokenOf(redirects[0])}`), tokenOf(redirects[0]));
    expect(onPlatform.status).toBe(302);

    const row = await db.email.findUniqueOrThrow({ where: { id } });
    expect(row.opened_at).toBeInstanceOf(Date);
    expect((row.clicked_links as { url: string }[]).map((l) => l.url)).toEqual([
      "https://shop.example/spring?utm_source=partner&utm_medium=email&utm_campaign=spring",
      "https://shop.example/faq?utm_source=newsletter&utm_medium=email&utm_campaign=spring#top",
      "https://shop.example/spring?utm_source=partner&utm_medium=email&utm_campaign=spring",
    ]);
  });

  it("keeps the platform's host while the CNAME is not seen", async () => {
    const { org, name, host, checked } = await fixtures.trackingTenant(dns, { cname: false });
    expect(checked).toMatchObject({ status: "verified", tracking_active: false });
    expect((checked.records as Rec[]).find((r) => r.purpose === "tracking")).toMatchObject({ status: "pending", reason: "the name does not exist in DNS" });
    const { mail, id } = await fixtures.sendThroughSink(org, sink, { from: `news@${name}`, html: HTML });
    const { redirects, pixel } = fixtures.trackingUrlsOf(mail);
    expect(redirects).toHaveLength(2);
    expect(redirects.every((url) => url.startsWith(`${env.appUrl}/t/c/`))).toBe(true);
    expect(pixel!.startsWith(`${env.appUrl}/t/o/`)).toBe(true);
    // The unverified host does not serve the organization's own links either.
    await handlers.handleOpen(visit(pixel!, host), tokenOf(pixel!));
    expect((await db.email.findUniqueOrThrow({ where: { id } })).opened_at).toBeNull();
  });

  it("sends without a pixel or without redirects when the email asks, the UTM parameters still added", async () => {
    const { org, name, host } = await fixtures.trackingTenant(dns, { cname: true });
    const noOpens = await fixtures.sendThroughSink(org, sink, { from: `news@${name}`, html: HTML, track_opens: false, utm: { campaign: "q3" } });
    expect(fixtures.trackingUrlsOf(noOpens.mail).pixel).toBeUndefined();
    expect(fixtures.trackingUrlsOf(noOpens.mail).redirects).toHaveLength(2);
    const noClicks = await fixtures.sendThroughSink(org, sink, { from: `news@${name}`, html: HTML, track_clicks: false, utm: { campaign: "q3" } });
    expect(fixtures.trackingUrlsOf(noClicks.mail).redirects).toEqual([]);
    expect(String(noClicks.mail.parsed.html)).toContain('href="https://shop.example/spring?utm_source=partner&amp;utm_campaign=q3"');
    expect(fixtures.trackingUrlsOf(noClicks.mail).pixel!.startsWith(`https://${host}/t/o/`)).toBe(true);
  });

  it("follows a broadcast's settings for its emails: its UTM parameters on the tenant's host, no pixel when it says so", async () => {
    const { org, name, host } = await fixtures.trackingTenant(dns, { cname: true });
    const inbox = await sending.sinkInbox(org.organizationId, sink, { from_email: `news@${name}` });
    const { segmentId, contacts } = await sending.seedSegment(org.organizationId, [{ first_name: "Tess" }]);
    const created = await org.owner.api.post("/v1/broadcasts", {
      name: "Launch",
      subject: "News",
      inbox_id: inbox.id,
      html_content: HTML,
      segment_id: segmentId,
      sending_speed: "instant",
      track_opens: false,
      utm: { source: "launch" },
    });
    expect(created.body).toMatchObject({ track_opens: false, track_clicks: true, utm: { source: "launch" } });
    expect((await org.owner.api.post(`/v1/broadcasts/${created.body.id}/send`, {})).status).toBe(200);
    const { startBroadcast } = await import("@/lib/sending/fan-out");
    const { createSender } = await import("@/lib/sending/sender");
    expect(await startBroadcast(created.body.id)).toBe("started");
    const sender = createSender({ organizationId: org.organizationId });
    await sending.drain(sender, org.organizationId);
    sender.close();
    const mail = sink.messages.find((m) => m.envelopeTo.includes(contacts[0].email))!;
    const { redirects, pixel } = fixtures.trackingUrlsOf(mail);
    expect(pixel).toBeUndefined();
    expect(redirects.map((url) => url.startsWith(`https://${host}/t/c/`))).toEqual([true, true]);
    const destination = await handlers.handleClick(visit(redirects[1]), tokenOf(redirects[1]));
    expect(destination.headers.get("location")).toBe("https://shop.example/faq?utm_source=launch#top");
    // The unsubscribe link stays the platform's own, without parameters.
    expect(String(mail.parsed.html)).toMatch(new RegExp(`href="${env.appUrl}/u/[^"?]+"`));
  });
});
