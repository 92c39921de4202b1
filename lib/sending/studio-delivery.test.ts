import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { serveMedia } from "@/lib/media/serve";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";
import { testImages } from "@/lib/testing/images";
import { drain, seedSegment, sinkInbox } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { startBroadcast } from "./fan-out";
import { createSender } from "./sender";
import { readPreferenceToken } from "./preference-token";
import { signedIds } from "./signed-id";
import { readUnsubscribeToken, unsubscribeToken } from "./unsubscribe-token";
import { serveViewInBrowser } from "./view-page";

// The studio's promises, checked where they matter: in the mail a real SMTP server received.
let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.close());

const text = (words: string) => ({ type: "paragraph", content: [{ type: "text", text: words }] });

describe("a block email with an uploaded image, the brand, a conditional block, a view-in-browser link and the preference page", () => {
  let org: TestOrg;
  let imageUrl: string;
  let broadcastId: string;
  const mailTo = (address: string) => sink.messages.find((m) => m.envelopeTo[0] === address)!;

  beforeAll(async () => {
    org = await createTestOrg("Studio");
    const api = org.owner.api;
    expect((await api.put("/v1/organization", { theme: { primary_color: "#ff6600" } })).status).toBe(200);
    const image = await api.post("/v1/media", { filename: "hero.png", content: testImages.png.toString("base64") });
    imageUrl = image.body.url;
    const inbox = await sinkInbox(org.organizationId, sink);
    const { segmentId } = await seedSegment(org.organizationId, [
      { email: "pat@pro.test", first_name: "Pat", metadata: { plan: "pro" } },
      { email: "quinn@pro.test", first_name: "Quinn", metadata: { plan: "pro" } },
      { email: "fran@free.test", first_name: "Fran", metadata: { plan: "free" } },
      { email: "nemo@none.test", first_name: "Nemo" },
    ]);
    const created = await api.post("/v1/broadcasts", {
      name: "Studio",
      subject: "News for {{first_name}}",
      inbox_id: inbox.id,
      segment_id: segmentId,
      sending_speed: "instant",
      content_json: {
        type: "doc",
        content: [
          text("Hello everyone"),
          { type: "image", attrs: { src: imageUrl, alt: "Hero" } },
          { type: "conditional", attrs: { filter: { field: "metadata.plan", op: "eq", value: "pro" } }, content: [text("Your pro discount is waiting")] },
          { type: "button", attrs: { label: "Shop", href: "https://shop.test" } },
          {
            type: "paragraph",
            content: [{ type: "text", text: "View in browser", marks: [{ type: "link", attrs: { href: "{{view_in_browser_url}}" } }] }],
          },
          { type: "footer" },
        ],
      },
    });
    expect(created.status).toBe(201);
    broadcastId = created.body.id;
    expect((await api.post(`/v1/broadcasts/${broadcastId}/send`, {})).status).toBe(200);
    expect(await startBroadcast(broadcastId)).toBe("started");
    const sender = createSender({ organizationId: org.organizationId });
    await drain(sender, org.organizationId);
    sender.close();
    expect(sink.messages.filter((m) => m.envelopeTo[0].endsWith(".test"))).toHaveLength(4);
  });

  it("shows the uploaded image at a URL the app serves as image/png with long cache headers", async () => {
    const html = mailTo("pat@pro.test").parsed.html || "";
    expect(html).toContain(`src="${imageUrl}"`);
    expect(imageUrl.startsWith(`${env.appUrl}/m/`)).toBe(true);
    const served = await serveMedia(new URL(imageUrl).pathname.slice("/m/".length));
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("cache-control")).toContain("max-age=31536000");
  });

  it("is drawn in the organization's brand colour", () => {
    expect(mailTo("fran@free.test").parsed.html).toContain("background:#ff6600");
  });

  it("sends the conditional block to the contacts its filter matches, and only to them, in the HTML and the text", () => {
    for (const address of ["pat@pro.test", "quinn@pro.test"]) {
      expect(mailTo(address).parsed.html, address).toContain("Your pro discount is waiting");
      expect(mailTo(address).parsed.text, address).toContain("Your pro discount is waiting");
    }
    for (const address of ["fran@free.test", "nemo@none.test"]) {
      expect(mailTo(address).parsed.html, address).not.toContain("pro discount");
      expect(mailTo(address).parsed.text, address).not.toContain("pro discount");
      expect(mailTo(address).parsed.html, address).toContain("Hello everyone");
    }
    for (const mail of sink.messages) expect(mail.parsed.html || "").not.toContain("<!--mp:");
  });

  it("links the contact's preference page beside the view-in-browser link and the unsubscribe link, in the HTML and the text", async () => {
    for (const address of ["pat@pro.test", "fran@free.test"]) {
      const { html, text } = mailTo(address).parsed;
      const contact = await db.contact.findFirstOrThrow({ where: { organization_id: org.organizationId, email: address } });
      const preferences = new RegExp(`href="${env.appUrl}/p/([^"]+)"[^>]*>Manage preferences<`).exec(html || "")?.[1];
      expect(preferences, address).toBeDefined();
      expect(readPreferenceToken(preferences!), address).toBe(contact.id);
      expect(text, address).toContain(`Manage preferences: ${env.appUrl}/p/${preferences}`);
      expect(html, address).toMatch(new RegExp(`href="${env.appUrl}/v/[^"]+"`));
      expect(html, address).toMatch(new RegExp(`href="${env.appUrl}/u/[^"]+"`));
    }
  });

  it("reports delivery as not reported, never 0 %, for mail sent through an inbox (no DSN can come back)", async () => {
    const report = await org.owner.api.get(`/v1/broadcasts/${broadcastId}/report`);
    expect(report.body.totals).toMatchObject({ sent: 4, delivered: 0, delivery_reportable: 0 });
    expect(report.body.rates.delivery).toBeNull();
    const overview = await org.owner.api.get("/v1/reports/overview");
    expect(overview.body.rates.delivery).toBeNull();
  });

  it("notes on each email what it carried: no delivery report asked, the open pixel and a tracked link; opens and clicks are rates of those", async () => {
    const rows = await db.email.findMany({ where: { broadcast_id: broadcastId }, select: { dsn_requested: true, opens_tracked: true, clicks_tracked: true } });
    expect(rows).toEqual(Array.from({ length: 4 }, () => ({ dsn_requested: false, opens_tracked: true, clicks_tracked: true })));
    const report = await org.owner.api.get(`/v1/broadcasts/${broadcastId}/report`);
    expect(report.body.totals).toMatchObject({ open_tracked: 4, click_tracked: 4 });
    expect(report.body.rates).toMatchObject({ open: 0, click: 0 });
  });

  it("says opens and clicks are not tracked, never 0 %, for a broadcast sent with tracking off", async () => {
    const inbox = await db.inbox.findFirstOrThrow({ where: { organization_id: org.organizationId } });
    const { segmentId } = await seedSegment(org.organizationId, [{ email: "una@untracked.test" }, { email: "ugo@untracked.test" }]);
    const created = await org.owner.api.post("/v1/broadcasts", {
      name: "Untracked",
      subject: "Quiet news",
      inbox_id: inbox.id,
      segment_id: segmentId,
      sending_speed: "instant",
      track_opens: false,
      track_clicks: false,
      html_content: '<p>Read <a href="https://shop.test/quiet">more</a></p>',
    });
    expect(created.status).toBe(201);
    expect((await org.owner.api.post(`/v1/broadcasts/${created.body.id}/send`, {})).status).toBe(200);
    expect(await startBroadcast(created.body.id)).toBe("started");
    const sender = createSender({ organizationId: org.organizationId });
    await drain(sender, org.organizationId);
    sender.close();
    expect(mailTo("una@untracked.test").parsed.html).not.toContain("/t/o/");
    const report = await org.owner.api.get(`/v1/broadcasts/${created.body.id}/report`);
    expect(report.body.totals).toMatchObject({ sent: 2, open_tracked: 0, click_tracked: 0 });
    expect(report.body.rates).toMatchObject({ delivery: null, open: null, click: null });
  });

  it("links a page that shows the email as its recipient got it; a changed token is 404", async () => {
    const mail = mailTo("pat@pro.test");
    const link = new RegExp(`href="(${env.appUrl}/v/[^"]+)"`).exec(mail.parsed.html || "")?.[1];
    expect(link).toBeDefined();
    const token = link!.split("/v/")[1];
    const page = await serveViewInBrowser(token);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("content-security-policy")).toMatch(/^sandbox /);
    const body = await page.text();
    expect(body).toContain("Your pro discount is waiting");
    const row = await db.email.findFirstOrThrow({ where: { broadcast_id: broadcastId, to_email: "pat@pro.test" } });
    expect(body).toBe(row.html_content);
    const changed = token.slice(0, 5) + (token[5] === "A" ? "B" : "A") + token.slice(6);
    expect((await serveViewInBrowser(changed)).status).toBe(404);
    expect((await serveViewInBrowser("not-a-token")).status).toBe(404);
    // The same email's id signed for another purpose (its unsubscribe link, a preference link) opens nothing here.
    expect((await serveViewInBrowser(unsubscribeToken(row.id))).status).toBe(404);
    expect((await serveViewInBrowser(signedIds("preference-token").sign(row.id))).status).toBe(404);
    expect(readUnsubscribeToken(token)).toBeNull();
    // Fran's page is Fran's email: no pro block.
    const fran = new RegExp(`href="${env.appUrl}/v/([^"]+)"`).exec(mailTo("fran@free.test").parsed.html || "")![1];
    expect(await (await serveViewInBrowser(fran)).text()).not.toContain("pro discount");
  });
});
