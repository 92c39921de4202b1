import { startSmtpSink, type ReceivedMail, type SmtpSink } from "../lib/testing/smtp-sink";
import { api, expect, OVERVIEW_URL, signUp, test, uniqueEmail } from "./fixtures";

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
// Apple Mail Privacy Protection loads every image, read or not: a machine's open. (Gmail's image proxy
// fetches when the person opens, so its opens count as people's.)
const APPLE_PRIVACY_PROXY = "Mozilla/5.0";
const LINK_A = "https://example.com/spring/collection";
const LINK_B = "https://example.com/spring/sale";

/** The tracking URLs of a received message: its open pixel and its click redirects by destination order. */
function trackingUrls(mail: ReceivedMail) {
  const html = typeof mail.parsed.html === "string" ? mail.parsed.html : "";
  const pixel = /<img src="([^"]+\/t\/o\/[^"]+)"/.exec(html)?.[1];
  const clicks = [...html.matchAll(/href="([^"]+\/t\/c\/[^"]+)"/g)].map((m) => m[1]);
  if (!pixel || clicks.length !== 2) throw new Error(`No tracking in the message to ${mail.envelopeTo.join(", ")}`);
  return { pixel, clicks };
}

let sink: SmtpSink;

test.beforeAll(async () => {
  sink = await startSmtpSink();
});

test.afterAll(async () => {
  await sink?.close();
});

test.describe.configure({ timeout: 180_000 });

test("send a broadcast, open and click as recipients and as a proxy, read the report, save the openers as a segment, send one untracked, then see the overview", async ({
  page,
  freshPage,
  request,
}, testInfo) => {
  const owner = uniqueEmail("reports");
  await signUp(page, { name: "Rita Reports", email: owner, password: "correct horse battery", organizationName: "Report Co" });
  await expect(page).toHaveURL(OVERVIEW_URL);
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Nothing sent in the last 30 days" })).toBeVisible();

  // An inbox whose SMTP server is the sink, three contacts in a segment, and a broadcast with two links.
  const tag = Date.now().toString(36);
  const inbox = await api<{ id: string }>(page, "POST", "/v1/inboxes", {
    name: "News inbox",
    from_email: `news-${tag}@reports.test`,
    daily_limit: 100,
    smtp: { host: sink.host, port: sink.port, secure: false, username: "news", password: "secret" },
  });
  // Proof of sender: the confirmation link goes through the inbox's own server (the sink) and is followed by whoever reads it.
  await api(page, "POST", `/v1/inboxes/${inbox.id}/send-confirmation`);
  const confirmation = (await sink.waitFor(1, 30_000)).find((m) => m.parsed.subject === "Confirm your sender address")!;
  const confirmLink = /https?:\/\/\S+\/confirm-sender\/[A-Za-z0-9_-]+/.exec(confirmation.parsed.text ?? "")![0];
  const reader = await freshPage();
  await reader.goto(new URL(confirmLink).pathname);
  await reader.getByRole("button", { name: `Confirm news-${tag}@reports.test` }).click();
  await expect(reader.getByRole("status")).toContainText("is confirmed");

  const people = ["ada", "bo", "cy"].map((name) => ({ email: `${name}-${tag}@example.test`, first_name: name[0].toUpperCase() + name.slice(1) }));
  await api(page, "POST", "/v1/contacts/bulk", { contacts: people });
  const segment = await api<{ id: string }>(page, "POST", "/v1/segments", { name: `Spring list ${tag}` });
  await api(page, "POST", `/v1/segments/${segment.id}/contacts`, { emails: people.map((p) => p.email) });
  const broadcast = await api<{ id: string }>(page, "POST", "/v1/broadcasts", {
    name: "Spring report",
    subject: "Spring is here",
    inbox_id: inbox.id,
    segment_id: segment.id,
    sending_speed: "instant",
    html_content: `<html><body><h1>Hello {{first_name|there}}</h1><p><a href="${LINK_A}">The collection</a> and <a href="${LINK_B}">the sale</a>.</p></body></html>`,
  });

  // Sent from the broadcast page, as a marketer would.
  await page.goto(`/broadcasts/${broadcast.id}`);
  await page.getByRole("button", { name: "Send now" }).click();
  // The pre-send checks come first (editor branch); warnings only, so "Send now anyway".
  await page
    .getByRole("dialog", { name: "Send this broadcast now?" })
    .getByRole("button", { name: /^Send now( anyway)?$/ })
    .click({ timeout: 60_000 });
  const received = (await sink.waitFor(4, 60_000)).filter((m) => m.parsed.subject === "Spring is here");
  expect(received).toHaveLength(3);
  const mailTo = (name: string) => received.find((m) => m.envelopeTo.some((to) => to.startsWith(`${name}-${tag}@`)))!;
  await expect
    .poll(async () => (await api<{ totals: { sent: number } }>(page, "GET", `/v1/broadcasts/${broadcast.id}/report`)).totals.sent, { timeout: 30_000 })
    .toBe(3);

  // Ada opens in a browser and clicks the first link; Bo's pixel is fetched by Apple's privacy proxy;
  // Cy opens and clicks the second link twice.
  const ada = trackingUrls(mailTo("ada"));
  const bo = trackingUrls(mailTo("bo"));
  const cy = trackingUrls(mailTo("cy"));
  const fetchAs = async (url: string, userAgent: string) => {
    const response = await request.get(url, { headers: { "user-agent": userAgent }, maxRedirects: 0 });
    return response;
  };
  expect((await fetchAs(ada.pixel, CHROME)).headers()["content-type"]).toBe("image/gif");
  expect((await fetchAs(ada.clicks[0], CHROME)).headers().location).toBe(LINK_A);
  expect((await fetchAs(bo.pixel, APPLE_PRIVACY_PROXY)).status()).toBe(200);
  await fetchAs(cy.pixel, CHROME);
  expect((await fetchAs(cy.clicks[1], CHROME)).headers().location).toBe(LINK_B);
  await fetchAs(cy.clicks[1], CHROME);

  // The Report tab.
  await page.reload();
  await page.getByRole("tab", { name: "Report" }).click();
  await expect(page).toHaveURL(/\?tab=report$/);
  const tile = (label: string) => page.getByRole("group", { name: label, exact: true });
  await expect(tile("Sent")).toContainText("3");
  // Sent through an inbox: no delivery report can come back, so it says so instead of 0 %.
  await expect(tile("Delivered")).toContainText("Not reported");
  await expect(tile("Opened")).toContainText("66.7%");
  await expect(tile("Opened")).toContainText("2 people · 2 opens");
  await expect(tile("Clicked")).toContainText("66.7%");
  await expect(tile("Clicked")).toContainText("2 people · 3 clicks");
  await expect(tile("Machine activity")).toContainText("1 opens · 0 clicks");
  await expect(page.getByRole("note").filter({ hasText: "Machine activity left out" })).toContainText("Opens: 1, clicks: 0");
  await expect(page.getByRole("img", { name: "Sends, opens and clicks over time" })).toBeVisible();

  const links = page.getByRole("table", { name: "Clicked links" }).getByRole("row");
  await expect(links).toHaveCount(3);
  await expect(links.nth(1)).toContainText(LINK_B);
  await expect(links.nth(1).getByRole("cell").nth(1)).toHaveText("2");
  await expect(links.nth(1).getByRole("cell").nth(2)).toHaveText("1");
  await expect(links.nth(2)).toContainText(LINK_A);
  await expect(links.nth(2).getByRole("cell").nth(1)).toHaveText("1");

  // Who opened: Ada and Cy, not Bo (only a proxy loaded Bo's pixel).
  const openers = page.getByRole("table", { name: "Recipients who opened" });
  await expect(openers.getByRole("row")).toHaveCount(3);
  await expect(openers).toContainText(`ada-${tag}@example.test`);
  await expect(openers).toContainText(`cy-${tag}@example.test`);
  await expect(openers).not.toContainText(`bo-${tag}@`);
  await page.getByRole("tab", { name: /Clicked/ }).click();
  await expect(page.getByRole("table", { name: "Recipients who clicked" }).getByRole("row")).toHaveCount(3);
  await page.getByRole("tab", { name: /Opened/ }).click();
  await page.getByRole("button", { name: "Save as segment" }).click();
  await expect(page.getByText("Saved as segment “Spring report: openers”")).toBeVisible();
  const segments = await api<{ data: { name: string; contacts_count: number }[] }>(page, "GET", "/v1/segments");
  expect(segments.data.find((s) => s.name === "Spring report: openers")?.contacts_count).toBe(2);

  const reportShot = testInfo.outputPath("report.png");
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: reportShot, fullPage: true });
  await testInfo.attach("report", { path: reportShot, contentType: "image/png" });

  // The saved segment is there for the next broadcast.
  await page.getByRole("link", { name: "Segments" }).click();
  await expect(page.getByRole("link", { name: "2 contacts in Spring report: openers; show them" })).toBeVisible();

  // A second broadcast to them with opens and clicks untracked: its report cannot know them, and says so.
  const quiet = await api<{ id: string }>(page, "POST", "/v1/broadcasts", {
    name: "Spring, untracked",
    subject: "Spring, quietly",
    inbox_id: inbox.id,
    segment_id: segment.id,
    sending_speed: "instant",
    track_opens: false,
    track_clicks: false,
    html_content: `<html><body><p>Hello again: <a href="${LINK_A}">the collection</a>.</p></body></html>`,
  });
  await api(page, "POST", `/v1/broadcasts/${quiet.id}/send`, {});
  await expect
    .poll(async () => (await api<{ totals: { sent: number } }>(page, "GET", `/v1/broadcasts/${quiet.id}/report`)).totals.sent, { timeout: 30_000 })
    .toBe(3);
  expect(sink.messages.filter((m) => m.parsed.subject === "Spring, quietly").every((m) => !String(m.parsed.html).includes("/t/o/"))).toBe(true);
  await page.goto(`/broadcasts/${quiet.id}?tab=report`);
  await expect(tile("Opened")).toContainText("Not tracked");
  await expect(tile("Opened")).toContainText("Sent without the open pixel");
  await expect(tile("Clicked")).toContainText("Not tracked");
  await expect(tile("Delivered")).toContainText("Not reported");
  await page.getByText("How these figures are counted").click();
  await expect(page.getByText(/out of the emails the receiving server accepted with the open pixel/)).toBeVisible();

  // The overview: both broadcasts over 30 days, opens and clicks out of the three emails that could
  // show them (not 2 of 6), nothing sending any more, nothing to warn about.
  await page.getByRole("link", { name: "Overview" }).click();
  await expect(page).toHaveURL(OVERVIEW_URL);
  await expect(page.getByRole("group", { name: "Sent", exact: true })).toContainText("6");
  await expect(page.getByRole("group", { name: "Open rate" })).toContainText("66.7%");
  await expect(page.getByRole("group", { name: "Open rate" })).toContainText("2 of 3 tracked");
  await expect(page.getByRole("group", { name: "Click rate" })).toContainText("66.7%");
  await expect(page.getByRole("group", { name: "Delivery rate" })).toContainText("Not reported");
  await expect(page.getByRole("img", { name: "Emails sent, opened, clicked and bounced per day" })).toBeVisible();
  await expect(page.getByText("No broadcast is sending right now.")).toBeVisible();
  await expect(page.getByText(/Nothing needs attention/)).toBeVisible();
  const overviewShot = testInfo.outputPath("overview.png");
  await page.screenshot({ path: overviewShot, fullPage: true });
  await testInfo.attach("overview", { path: overviewShot, contentType: "image/png" });
});
