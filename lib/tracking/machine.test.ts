import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestOrg } from "@/lib/testing/api";
import { addTracking } from "./add-tracking";
import { machineReason, SCANNER_WINDOW_MS } from "./machine";
import { recordClick } from "./record-click";
import { recordOpen } from "./record-open";
import { signClickToken, signOpenToken } from "./token";
import { emailEventsOf } from "@/lib/testing/events";

const THUNDERBIRD = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Thunderbird/128.3.0";
const OUTLOOK = "Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17928; Pro)";
const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const GMAIL_PROXY = "Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)";

const person = (userAgent = THUNDERBIRD) => ({ userAgent, ip: "203.0.113.7" });

describe("machineReason", () => {
  it("tells known proxies, scanners and bots from mail clients and browsers", () => {
    expect(machineReason(person("Mozilla/5.0"))).toBe("apple_privacy_proxy");
    // Gmail's and Yahoo's proxies fetch when the person opens the email: a person's open (isbot alone calls them bots).
    expect(machineReason(person(GMAIL_PROXY))).toBeNull();
    expect(machineReason(person("YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html"))).toBeNull();
    expect(machineReason(person("Barracuda Sentinel (EE)"))).toBe("bot");
    expect(machineReason(person("python-requests/2.32.3"))).toBe("bot");
    expect(machineReason(person("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"))).toBe("bot");
    expect(machineReason({ userAgent: null, ip: null })).toBe("no_user_agent");
    expect(machineReason(person("   "))).toBe("no_user_agent");
    for (const client of [
      THUNDERBIRD,
      OUTLOOK,
      CHROME,
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
    ]) {
      expect(machineReason(person(client)), client).toBeNull();
    }
  });
});

describe("recording machine opens and clicks", () => {
  let organizationId: string;
  let broadcastId: string;

  const LINKS = ["https://example.com/a", "https://example.com/b", "https://example.com/c"];
  const html = (links: string[]) => `<html><body>${links.map((l) => `<a href="${l}">${l}</a>`).join(" ")}</body></html>`;

  async function sentEmail(links: string[], sentAt: Date) {
    const id = randomUUID();
    await db.email.create({
      data: {
        id,
        organization_id: organizationId,
        message_id: `<${id}@example.com>`,
        from_email: "news@example.com",
        to_email: "reader@example.net",
        subject: "Hello",
        html_content: addTracking(html(links), id).html,
        broadcast_id: broadcastId,
        status: "sent",
        sent_at: sentAt,
      },
    });
    return id;
  }

  const email = (id: string) => db.email.findUniqueOrThrow({ where: { id } });
  const broadcast = () => db.broadcast.findUniqueOrThrow({ where: { id: broadcastId } });
  const events = async (id: string) => (await emailEventsOf(id)).filter((e) => e.name === "email.opened" || e.name === "email.clicked");
  const click = (id: string, url: string, at: Date, userAgent = THUNDERBIRD) => recordClick(signClickToken(id, url), person(userAgent), at);

  beforeEach(async () => {
    organizationId = (await createTestOrg()).organizationId;
    broadcastId = (
      await db.broadcast.create({ data: { organization_id: organizationId, name: "B", subject: "S", from_email: "news@example.com", status: "sent" } })
    ).id;
  });

  it("keeps a privacy proxy's open flagged on the event, without opened_at or the broadcast's count; a person's open after it counts", async () => {
    const id = await sentEmail(LINKS, new Date(Date.now() - 3_600_000));
    expect(await recordOpen(signOpenToken(id), person("Mozilla/5.0"))).toBe(true);
    expect(await recordOpen(signOpenToken(id), person("curl/8.5.0"))).toBe(true);
    let row = await email(id);
    expect(row.opened_at).toBeNull();
    expect((row.opens as { machine?: string }[]).map((o) => o.machine)).toEqual(["apple_privacy_proxy", "bot"]);
    expect((await broadcast()).opened_count).toBe(0);

    await recordOpen(signOpenToken(id), person());
    row = await email(id);
    expect(row.opened_at).toBeInstanceOf(Date);
    expect((await broadcast()).opened_count).toBe(1);
    const recorded = await events(id);
    expect(recorded.map((e) => [e.machine, e.broadcast_id])).toEqual([
      [true, broadcastId],
      [true, broadcastId],
      [false, broadcastId],
    ]);
  });

  it("counts an open through Gmail's image proxy as the person's, noting the proxy on it", async () => {
    const id = await sentEmail(LINKS, new Date(Date.now() - 3_600_000));
    expect(await recordOpen(signOpenToken(id), person(GMAIL_PROXY))).toBe(true);
    const row = await email(id);
    expect(row.opened_at).toBeInstanceOf(Date);
    expect(row.opens).toEqual([expect.objectContaining({ proxy: "google_image_proxy" })]);
    expect((row.opens as { machine?: string }[])[0].machine).toBeUndefined();
    expect((await broadcast()).opened_count).toBe(1);
    expect((await events(id)).map((e) => e.machine)).toEqual([false]);
  });

  it("flags a scanner that follows every link within seconds of delivery, including the clicks it made before the last one", async () => {
    const sentAt = new Date(Date.now() - 60_000);
    const id = await sentEmail(LINKS, sentAt);
    const at = (ms: number) => new Date(sentAt.getTime() + ms);
    // The first two look like a person's until the third completes the set.
    expect(await click(id, LINKS[0], at(1_000), CHROME)).toBe(LINKS[0]);
    expect(await click(id, LINKS[1], at(1_500), CHROME)).toBe(LINKS[1]);
    expect((await email(id)).clicked_at).toEqual(at(1_000));
    expect((await broadcast()).clicked_count).toBe(1);

    expect(await click(id, LINKS[2], at(2_000), CHROME)).toBe(LINKS[2]);
    const row = await email(id);
    expect(row.clicked_at).toBeNull();
    expect((row.clicked_links as { machine?: string }[]).map((l) => l.machine)).toEqual(["link_scanner", "link_scanner", "link_scanner"]);
    expect((await broadcast()).clicked_count).toBe(0);
    expect((await events(id)).map((e) => [e.machine, (e.properties as { machine?: boolean }).machine])).toEqual([
      [true, true],
      [true, true],
      [true, true],
    ]);

    // The person who reads it later is counted.
    await click(id, LINKS[1], at(SCANNER_WINDOW_MS + 60_000));
    expect((await email(id)).clicked_at).toEqual(at(SCANNER_WINDOW_MS + 60_000));
    expect((await broadcast()).clicked_count).toBe(1);
  });

  it("leaves people's clicks alone: every link but slowly, some links quickly, or the only link quickly", async () => {
    const sentAt = new Date(Date.now() - 3_600_000);
    const at = (ms: number) => new Date(sentAt.getTime() + ms);
    const slow = await sentEmail(LINKS, sentAt);
    for (const [index, link] of LINKS.entries()) await click(slow, link, at(SCANNER_WINDOW_MS + 1_000 * (index + 1)));
    const quickSome = await sentEmail(LINKS, sentAt);
    await click(quickSome, LINKS[0], at(500));
    await click(quickSome, LINKS[2], at(900));
    const single = await sentEmail([LINKS[0]], sentAt);
    await click(single, LINKS[0], at(300));
    for (const id of [slow, quickSome, single]) {
      expect(
        (await events(id)).every((e) => !e.machine),
        id,
      ).toBe(true);
      expect((await email(id)).clicked_at).toBeInstanceOf(Date);
    }
    expect((await broadcast()).clicked_count).toBe(3);
  });

  it("keeps a known bot's click as a machine's even when it is the first", async () => {
    const id = await sentEmail(LINKS, new Date(Date.now() - 3_600_000));
    expect(await click(id, LINKS[0], new Date(), "Barracuda Sentinel (EE)")).toBe(LINKS[0]);
    expect((await email(id)).clicked_at).toBeNull();
    expect((await events(id))[0]).toMatchObject({ machine: true, properties: { machine: true, first_click: false } });
    expect((await email(id)).clicked_links).toMatchObject([{ machine: "bot" }]);
  });
});
