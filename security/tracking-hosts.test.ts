import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTxtServer, type TxtServer } from "@/lib/dns/txt-server";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";

// Tracking hosts (docs/SECURITY.md, "Tracking hosts"): an organization's links.<domain> answers the
// tracking routes, so it must serve that organization's links alone, and only once the domain is
// proven its own. Requests go to the app's route handlers with the Host header a client chose.
let dns: TxtServer;
let sink: SmtpSink;
let db: typeof import("@/lib/db").db;
let env: typeof import("@/lib/env").env;
let fixtures: Pick<typeof import("@/lib/testing/tracking-fixtures"), "trackingTenant" | "sendThroughSink" | "trackingUrlsOf" | "trackingTokenOf">;
let sinkInbox: typeof import("@/lib/testing/sending-fixtures").sinkInbox;
let click: (request: Request, token: string) => Promise<Response>;
let open: (request: Request, token: string) => Promise<Response>;
let tlsAsk: (request: Request) => Promise<Response>;

beforeAll(async () => {
  dns = await startTxtServer();
  process.env.DNS_RESOLVER = dns.address;
  sink = await startSmtpSink();
  db = (await import("@/lib/db")).db;
  env = (await import("@/lib/env")).env;
  const { trackingTenant, sendThroughSink, trackingUrlsOf, trackingTokenOf } = await import("@/lib/testing/tracking-fixtures");
  fixtures = { trackingTenant, sendThroughSink, trackingUrlsOf, trackingTokenOf };
  sinkInbox = (await import("@/lib/testing/sending-fixtures")).sinkInbox;
  const clickRoute = await import("@/app/t/c/[token]/route");
  const openRoute = await import("@/app/t/o/[token]/route");
  click = (request, token) => clickRoute.GET(request, { params: Promise.resolve({ token }) });
  open = (request, token) => openRoute.GET(request, { params: Promise.resolve({ token }) });
  tlsAsk = (await import("@/app/t/tls/route")).GET;
});

afterAll(async () => {
  await sink?.close();
  await dns?.close();
});

const HTML = '<html><body><a href="https://shop.example/">Shop</a></body></html>';
const get = (url: string, host?: string) =>
  new Request(url, { headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0", ...(host && { host }) } });

describe("tracking hosts", () => {
  it("refuse another organization's links, whatever Host the request names", async () => {
    const victim = await fixtures.trackingTenant(dns, { cname: true });
    const attacker = await fixtures.trackingTenant(dns, { cname: true });
    const { mail, id } = await fixtures.sendThroughSink(attacker.org, sink, { from: `news@${attacker.name}`, html: HTML });
    const { redirects, pixel } = fixtures.trackingUrlsOf(mail);
    const token = fixtures.trackingTokenOf(redirects[0]);
    const pixelToken = fixtures.trackingTokenOf(pixel!);
    expect(redirects[0]).toBe(`https://${attacker.host}/t/c/${token}`);

    // The attacker's link put on the victim's host, in the URL or in a Host header (any case, a port, a trailing dot).
    for (const request of [
      get(`https://${victim.host}/t/c/${token}`),
      get(redirects[0], victim.host),
      get(`${env.appUrl}/t/c/${token}`, `${victim.host.toUpperCase()}.:443`),
      get(redirects[0], "unknown.example"),
    ]) {
      const answer = await click(request, token);
      expect(answer.status).toBe(404);
      expect(answer.headers.get("location")).toBeNull();
    }
    expect((await open(get(`https://${victim.host}/t/o/${pixelToken}`), pixelToken)).headers.get("content-type")).toBe("image/gif");
    expect(await db.email.findUniqueOrThrow({ where: { id } })).toMatchObject({ opened_at: null, clicked_at: null, opens: [], clicked_links: [] });

    // Its own host and the platform's serve it.
    expect((await click(get(redirects[0]), token)).headers.get("location")).toBe("https://shop.example/");
    expect((await click(get(`${env.appUrl}/t/c/${token}`), token)).status).toBe(302);
    await open(get(pixel!), pixelToken);
    expect((await db.email.findUniqueOrThrow({ where: { id } })).opened_at).toBeInstanceOf(Date);
  });

  it("are not given to an organization that adds someone else's domain, though it sees the owner's CNAME", async () => {
    const owner = await fixtures.trackingTenant(dns, { cname: true });
    expect(owner.checked.tracking_active).toBe(true);
    // The squatter adds the same domain and the same subdomain: the CNAME it checks is the owner's, the ownership token is not.
    const squatter = await fixtures.trackingTenant(dns, { cname: true, name: owner.name, publish: false });
    expect(squatter.checked).toMatchObject({ status: "pending", tracking_active: false });
    expect((squatter.checked.records as { purpose: string; status: string }[]).find((r) => r.purpose === "tracking")!.status).toBe("verified");

    // Its mail from that domain, through an inbox of its own, keeps the platform's host...
    const inbox = await sinkInbox(squatter.org.organizationId, sink, { from_email: `news@${owner.name}` });
    const { mail, id } = await fixtures.sendThroughSink(squatter.org, sink, { inbox_id: inbox.id, html: HTML });
    const { redirects } = fixtures.trackingUrlsOf(mail);
    expect(redirects[0].startsWith(`${env.appUrl}/t/c/`)).toBe(true);
    // ...and the owner's host does not serve its links.
    const token = fixtures.trackingTokenOf(redirects[0]);
    expect((await click(get(`https://${owner.host}/t/c/${token}`), token)).status).toBe(404);
    expect((await db.email.findUniqueOrThrow({ where: { id } })).clicked_at).toBeNull();
  });

  it("get a certificate on demand only once in use: a TLS proxy's check answers 404 for any other name", async () => {
    const owner = await fixtures.trackingTenant(dns, { cname: true });
    const unpublished = await fixtures.trackingTenant(dns, { cname: false });
    const ask = async (domain: string) => (await tlsAsk(get(`${env.appUrl}/t/tls?domain=${encodeURIComponent(domain)}`))).status;
    expect(await ask(owner.host)).toBe(200);
    expect(await ask(`${owner.host.toUpperCase()}.`)).toBe(200);
    expect(await ask(new URL(env.appUrl).hostname)).toBe(200);
    expect(await ask(unpublished.host)).toBe(404);
    expect(await ask(owner.name)).toBe(404);
    expect(await ask(`x.${owner.host}`)).toBe(404);
    expect(await ask("")).toBe(404);
    expect(await ask("a".repeat(300))).toBe(404);
  });
});
