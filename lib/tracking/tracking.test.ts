import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { PEER_HEADER } from "@/lib/api/client-address";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { createTestOrg } from "@/lib/testing/api";
import { addTracking } from "./add-tracking";
import { handleClick, handleOpen } from "./handlers";
import { signClickToken, signOpenToken, verifyClickToken, verifyOpenToken } from "./token";
import { dispatchEventsOf, emailEventsOf } from "@/lib/testing/events";
import { documentedPayload } from "@/lib/testing/webhook-payloads";
import { addTestWebhook } from "@/lib/testing/webhook-fixtures";

const HTML = `<html><body>
<p>Hello <a href="https://example.com/pricing?a=1&amp;b=2">pricing</a></p>
<p><a class="btn" href='https://example.com/docs'>docs</a> <a href=https://example.com/bare>bare</a></p>
<p><a href="mailto:sales@example.com">mail</a> <a href="#top">top</a> <a href="/relative">rel</a></p>
<p><a href="${env.appUrl}/unsubscribe/abc">unsubscribe</a> <a href="https://example.com/docs">docs again</a></p>
</body></html>`;

const tokenOf = (url: string) => new URL(url).pathname.split("/").pop()!;

/** A person reading in a mail client. */
const READER = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Thunderbird/128.3.0";

describe("addTracking", () => {
  const emailId = randomUUID();

  it("rewrites the email's web links to signed redirects and adds a pixel before </body>", () => {
    const { html, links } = addTracking(HTML, emailId);
    expect(links).toEqual(["https://example.com/pricing?a=1&b=2", "https://example.com/docs", "https://example.com/bare"]);
    const hrefs = [...html.matchAll(/href=(?:"([^"]*)"|'([^']*)'|([^\s>]+))/g)].map((m) => m[1] ?? m[2] ?? m[3]);
    const tracked = hrefs.filter((href) => href.startsWith(`${env.appUrl}/t/c/`));
    expect(tracked).toHaveLength(4);
    expect(tracked.map((href) => verifyClickToken(tokenOf(href)))).toEqual([
      { emailId, url: "https://example.com/pricing?a=1&b=2" },
      { emailId, url: "https://example.com/docs" },
      { emailId, url: "https://example.com/bare" },
      { emailId, url: "https://example.com/docs" },
    ]);
    // Not web links, or links to this service itself: left as they were.
    expect(hrefs).toEqual(expect.arrayContaining(["mailto:sales@example.com", "#top", "/relative", `${env.appUrl}/unsubscribe/abc`]));
    expect(html).toContain('class="btn"');
    const pixel = html.match(/<img src="([^"]+)" width="1" height="1"[^>]*\/>\s*<\/body>/);
    expect(pixel).not.toBeNull();
    expect(verifyOpenToken(tokenOf(pixel![1]))).toEqual({ emailId });
  });

  it("appends the pixel when there is no body element, and uses the given base URL", () => {
    const { html, links } = addTracking('<p><a href="https://x.test/">x</a></p>', emailId, { baseUrl: "https://t.example.org/" });
    expect(links).toEqual(["https://x.test/"]);
    expect(html).toMatch(/^<p><a href="https:\/\/t\.example\.org\/t\/c\/[^"]+">x<\/a><\/p><img src="https:\/\/t\.example\.org\/t\/o\/[^"]+"/);
  });

  it("signs tokens that cannot be altered or moved to another email", () => {
    const open = signOpenToken(emailId);
    expect(verifyOpenToken(open)).toEqual({ emailId });
    expect(verifyClickToken(open)).toBeNull();
    const click = signClickToken(emailId, "https://example.com/a");
    expect(verifyOpenToken(click)).toBeNull();
    const [payload, mac] = click.split(".");
    const forged = Buffer.from(payload, "base64url");
    forged.write("https://evil.test/", 16);
    expect(verifyClickToken(`${forged.toString("base64url")}.${mac}`)).toBeNull();
    const otherEmail = Buffer.from(payload, "base64url");
    otherEmail[0] ^= 1;
    expect(verifyClickToken(`${otherEmail.toString("base64url")}.${mac}`)).toBeNull();
    expect(verifyOpenToken("garbage")).toBeNull();
    expect(verifyClickToken("a.b.c")).toBeNull();
  });
});

describe("open and click tracking", () => {
  let organizationId: string;
  let broadcastId: string;
  let webhookId: string;

  async function sentEmail(html: (id: string) => string) {
    const id = randomUUID();
    await db.email.create({
      data: {
        id,
        organization_id: organizationId,
        message_id: `<${randomUUID()}@example.com>`,
        from_email: "news@example.com",
        to_email: "reader@example.net",
        subject: "Hello",
        html_content: html(id),
        broadcast_id: broadcastId,
        contact_id: null,
        status: "sent",
        sent_at: new Date(),
      },
    });
    return id;
  }

  const trackedEmail = () => sentEmail((id) => addTracking(HTML, id).html);
  // The connection's address, as the server records it, and an X-Forwarded-For the client made up (no TRUST_PROXY here).
  const visit = (url: string) =>
    new Request(url, { headers: { "user-agent": READER, [PEER_HEADER]: "::ffff:203.0.113.7", "x-forwarded-for": "198.51.100.99, 10.0.0.1" } });
  const email = (id: string) => db.email.findUniqueOrThrow({ where: { id } });
  const broadcast = () => db.broadcast.findUniqueOrThrow({ where: { id: broadcastId } });
  const events = (id: string) => emailEventsOf(id);
  // Queued by the events dispatcher (lib/events), as the worker's loop runs it.
  const deliveries = async (type: string) => {
    await dispatchEventsOf(organizationId);
    return (await db.webhookDelivery.findMany({ where: { webhook_id: webhookId, event_type: type } })).map((d) => ({
      ...d,
      payload: documentedPayload(d.payload),
    }));
  };

  function trackedLinks(html: string) {
    return [...html.matchAll(/href="([^"]*\/t\/c\/[^"]+)"/g)].map((m) => m[1]);
  }
  function pixelOf(html: string) {
    return html.match(/<img src="([^"]+\/t\/o\/[^"]+)"/)![1];
  }

  beforeEach(async () => {
    organizationId = (await createTestOrg()).organizationId;
    broadcastId = (
      await db.broadcast.create({ data: { organization_id: organizationId, name: "B", subject: "S", from_email: "news@example.com", status: "sending" } })
    ).id;
    webhookId = (await addTestWebhook(organizationId, ["email.opened", "email.clicked"])).id;
  });

  it("serves the pixel and records each open, counting the first one on the broadcast", async () => {
    const id = await trackedEmail();
    const pixel = pixelOf((await email(id)).html_content!);

    const response = await handleOpen(visit(pixel), tokenOf(pixel));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/gif");
    expect(response.headers.get("cache-control")).toContain("no-store");
    const gif = Buffer.from(await response.arrayBuffer());
    expect(gif.subarray(0, 6).toString("latin1")).toBe("GIF89a");
    expect(gif.readUInt16LE(6)).toBe(1);
    expect(gif.readUInt16LE(8)).toBe(1);

    let row = await email(id);
    const firstOpen = row.opened_at!;
    expect(firstOpen).toBeInstanceOf(Date);
    expect(row.opens).toEqual([{ at: firstOpen.toISOString(), user_agent: READER, ip: "203.0.113.7" }]);
    expect((await broadcast()).opened_count).toBe(1);

    await handleOpen(visit(pixel), tokenOf(pixel));
    row = await email(id);
    expect(row.opened_at).toEqual(firstOpen);
    expect(row.opens as unknown[]).toHaveLength(2);
    expect((await broadcast()).opened_count).toBe(1);
    expect((await events(id)).map((e) => e.name)).toEqual(["email.opened", "email.opened"]);
    const queued = await deliveries("email.opened");
    expect(queued).toHaveLength(2);
    expect(queued[0].payload).toMatchObject({ type: "email.opened", data: { email_id: id, broadcast_id: broadcastId, to: ["reader@example.net"] } });
  });

  it("answers the pixel for a token that is not ours and records nothing", async () => {
    const id = await trackedEmail();
    // Change a character inside the signature: the last one also carries padding bits that decoding drops.
    const token = signOpenToken(id);
    const at = token.length - 5;
    const forged = `${token.slice(0, at)}${token[at] === "A" ? "B" : "A"}${token.slice(at + 1)}`;
    const response = await handleOpen(visit("http://localhost/t/o/x"), forged);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/gif");
    expect((await email(id)).opened_at).toBeNull();
  });

  it("redirects a click to the email's own link and records it", async () => {
    const id = await trackedEmail();
    const links = trackedLinks((await email(id)).html_content!);

    const response = await handleClick(visit(links[0]), tokenOf(links[0]));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("https://example.com/pricing?a=1&b=2");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");

    let row = await email(id);
    const firstClick = row.clicked_at!;
    expect(row.clicked_links).toEqual([{ url: "https://example.com/pricing?a=1&b=2", at: firstClick.toISOString(), user_agent: READER, ip: "203.0.113.7" }]);
    expect((await broadcast()).clicked_count).toBe(1);

    const second = await handleClick(visit(links[1]), tokenOf(links[1]));
    expect(second.headers.get("location")).toBe("https://example.com/docs");
    row = await email(id);
    expect(row.clicked_at).toEqual(firstClick);
    expect((row.clicked_links as { url: string }[]).map((l) => l.url)).toEqual(["https://example.com/pricing?a=1&b=2", "https://example.com/docs"]);
    expect((await broadcast()).clicked_count).toBe(1);
    const clicked = (await events(id)).filter((e) => e.name === "email.clicked");
    expect(clicked.map((e) => (e.properties as { link: string }).link)).toEqual(["https://example.com/pricing?a=1&b=2", "https://example.com/docs"]);
    const queued = await deliveries("email.clicked");
    expect(queued.map((d) => (d.payload as { data: { link: string } }).data.link).sort()).toEqual([
      "https://example.com/docs",
      "https://example.com/pricing?a=1&b=2",
    ]);
  });

  it("refuses to redirect anywhere that is not a link of that email", async () => {
    const id = await trackedEmail();
    const other = await trackedEmail();
    // Signed by the service, but for a URL the email does not contain.
    const notInEmail = signClickToken(id, "https://evil.example/phish");
    expect((await handleClick(visit("http://localhost/"), notInEmail)).status).toBe(404);
    // A link of the email presented with another email's id.
    expect((await handleClick(visit("http://localhost/"), signClickToken(randomUUID(), "https://example.com/docs"))).status).toBe(404);
    // A forged token.
    const [payload] = tokenOf(trackedLinks((await email(id)).html_content!)[0]).split(".");
    expect((await handleClick(visit("http://localhost/"), `${payload}.AAAAAAAAAAAAAAAAAAAAAA`)).status).toBe(404);
    expect((await handleClick(visit("http://localhost/"), "not-a-token")).status).toBe(404);
    for (const emailId of [id, other]) {
      const row = await email(emailId);
      expect(row.clicked_at).toBeNull();
      expect(row.clicked_links).toEqual([]);
    }
    expect((await broadcast()).clicked_count).toBe(0);
  });

  it("accepts a click when the stored HTML is the untracked original", async () => {
    const id = await sentEmail(() => HTML);
    const token = signClickToken(id, "https://example.com/pricing?a=1&b=2");
    const response = await handleClick(visit("http://localhost/"), token);
    expect(response.headers.get("location")).toBe("https://example.com/pricing?a=1&b=2");
    const spelledOtherwise = await sentEmail(() => '<a href="https://example.com/x?a=1&#38;b=2">x</a>');
    const other = await handleClick(visit("http://localhost/"), signClickToken(spelledOtherwise, "https://example.com/x?a=1&b=2"));
    expect(other.headers.get("location")).toBe("https://example.com/x?a=1&b=2");
  });

  it("with tracking off, still redirects but records neither opens nor clicks", async () => {
    const id = await trackedEmail();
    await db.organization.update({ where: { id: organizationId }, data: { tracking_enabled: false } });
    const html = (await email(id)).html_content!;
    await handleOpen(visit(pixelOf(html)), tokenOf(pixelOf(html)));
    const link = trackedLinks(html)[1];
    const response = await handleClick(visit(link), tokenOf(link));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("https://example.com/docs");
    const row = await email(id);
    expect(row).toMatchObject({ opened_at: null, clicked_at: null, opens: [], clicked_links: [] });
    expect(await events(id)).toHaveLength(0);
    expect((await broadcast()).opened_count).toBe(0);
  });
});
