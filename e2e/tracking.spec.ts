import { execFileSync } from "node:child_process";
import { startSmtpSink, type SmtpSink } from "../lib/testing/smtp-sink";
import { api, expect, finalScreenshot, signUp, test, uniqueEmail } from "./fixtures";

test.describe.configure({ timeout: 180_000 });

/** The e2e server asks no DNS server of ours, so what a check found is written with the app's Prisma client. */
function seedTrackingCheck(domainId: string) {
  const databaseUrl = `postgresql://postgres:postgres@127.0.0.1:${process.env.E2E_PG_PORT ?? "54349"}/mailplatform`;
  execFileSync("npx", ["tsx", "e2e/seed-tracking-check.ts", domainId], { env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: "utf8" });
}

let sink: SmtpSink;

test.beforeAll(async () => {
  sink = await startSmtpSink();
});

test.afterAll(async () => {
  await sink?.close();
});

const LINK = "https://shop.example/spring?ref=mail";

test("tracking on the sender's own domain: the subdomain and its CNAME in Settings, the broadcast's tracking choices, the mail's links on that host with UTM, a click there in the report, then the subdomain removed", async ({
  page,
  request,
}, testInfo) => {
  const tag = Date.now().toString(36);
  const domain = `mail-${tag}.tracking-co.example`;
  const host = `links.${domain}`;
  await signUp(page, { name: "Tia Tracking", email: uniqueEmail("tracking"), password: "correct horse battery", organizationName: "Tracking Co" });

  // Settings → Domains: the domain, then its tracking subdomain, whose CNAME joins the records as pending.
  await page.getByRole("link", { name: "Settings" }).first().click();
  await page.waitForURL(/\/settings/);
  await page
    .getByRole("tab", { name: /Domains|Sending/ })
    .first()
    .click();
  await page.getByRole("button", { name: "Add domain" }).first().click();
  await page.getByRole("dialog").getByLabel("Domain").fill(domain);
  await page.getByRole("dialog").getByRole("button", { name: "Add domain" }).click();
  await expect(page.getByText(`Added ${domain}`)).toBeVisible();

  const tracking = page.getByRole("form", { name: `Tracking subdomain of ${domain}` });
  await expect(tracking.getByRole("status")).toContainText("use the platform's host");
  await tracking.getByLabel("Tracking subdomain").fill("Links");
  await tracking.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(`Tracking host ${host}`)).toBeVisible();
  const records = page.getByRole("table").filter({ hasText: `_mailplatform.${domain}` });
  const cname = records.locator("tr[data-purpose=tracking]");
  await expect(cname).toContainText("CNAME");
  await expect(cname).toContainText(host);
  await expect(cname).toContainText("localhost");
  await expect(cname).toContainText("Pending");
  await expect(tracking.getByRole("status")).toContainText(`Not in use yet: publish the CNAME record for ${host} and verify the domain`);
  // No certificate for a host that is not in use yet.
  expect((await request.get(`/t/tls?domain=${host}`)).status()).toBe(404);

  // The DNS check finds the ownership record and the CNAME (written for it: no DNS server here).
  const domains = await api<{ data: { id: string; name: string }[] }>(page, "GET", "/v1/domains");
  seedTrackingCheck(domains.data.find((d) => d.name === domain)!.id);
  await page.reload();
  await expect(tracking.getByLabel("Tracking subdomain")).toHaveValue("links");
  await expect(cname).toContainText("Verified");
  await expect(tracking.getByRole("status")).toHaveText(`Links and the open pixel of mail from this domain use https://${host}/.`);
  expect((await request.get(`/t/tls?domain=${host}`)).status()).toBe(200);
  await finalScreenshot(page, testInfo, "tracking-subdomain");

  // An inbox at that domain (the verified domain proves its sender) whose SMTP server is the sink; two contacts.
  const from = `news@${domain}`;
  const inbox = await api<{ id: string }>(page, "POST", "/v1/inboxes", {
    name: "News inbox",
    from_email: from,
    daily_limit: 100,
    smtp: { host: sink.host, port: sink.port, secure: false, username: "news", password: "secret" },
  });
  const people = ["ada", "bo"].map((name) => ({ email: `${name}-${tag}@example.test`, first_name: name }));
  await api(page, "POST", "/v1/contacts/bulk", { contacts: people });
  const segment = await api<{ id: string }>(page, "POST", "/v1/segments", { name: `Spring list ${tag}` });
  await api(page, "POST", `/v1/segments/${segment.id}/contacts`, { emails: people.map((p) => p.email) });
  const broadcast = await api<{ id: string }>(page, "POST", "/v1/broadcasts", {
    name: "Spring on our own links",
    subject: `Spring ${tag}`,
    inbox_id: inbox.id,
    segment_id: segment.id,
    sending_speed: "instant",
    html_content: `<html><body><p>Hello {{first_name|there}}, <a href="${LINK}">the spring collection</a>.</p></body></html>`,
  });

  // The broadcast's tracking choices, in its editor: both switches on, a UTM source and campaign.
  await page.goto(`/broadcasts/${broadcast.id}`);
  await expect(page.getByRole("switch", { name: "Track opens" })).toBeChecked();
  await expect(page.getByRole("switch", { name: "Track clicks" })).toBeChecked();
  await page.getByLabel("UTM source").fill("newsletter");
  await page.getByLabel("UTM campaign").fill("spring");
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible({ timeout: 20_000 });

  await page.getByRole("button", { name: "Send now" }).click();
  await page
    .getByRole("dialog", { name: "Send this broadcast now?" })
    .getByRole("button", { name: /^Send now( anyway)?$/ })
    .click({ timeout: 60_000 });
  await expect.poll(() => sink.messages.filter((m) => m.parsed.subject === `Spring ${tag}`).length, { timeout: 60_000 }).toBe(2);
  const mailTo = (name: string) => sink.messages.find((m) => m.parsed.subject === `Spring ${tag}` && m.envelopeTo[0].startsWith(`${name}-${tag}@`))!;

  // Ada's message: the redirect and the pixel on the domain's own host, neither on the platform's.
  const html = String(mailTo("ada").parsed.html);
  const click = new RegExp(`href="https://${host.replace(/\./g, "\\.")}(/t/c/[^"]+)"`).exec(html)?.[1];
  const pixel = new RegExp(`<img src="https://${host.replace(/\./g, "\\.")}(/t/o/[^"]+)"`).exec(html)?.[1];
  expect(click, html).toBeDefined();
  expect(pixel, html).toBeDefined();
  // (The unsubscribe link stays on the platform's host: it is the platform's page, not a tracked link.)
  expect(html).not.toMatch(/localhost[^"]*\/t\/[co]\//);
  // The plain-text part carries the link itself, with the UTM parameters.
  expect(mailTo("ada").parsed.text).toContain(`${LINK}&utm_source=newsletter&utm_campaign=spring`);

  // Ada opens and clicks: her mail client asks the tracking host (the CNAME leads it to the app).
  const onHost = { host, "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36" };
  expect((await request.get(pixel!, { headers: onHost })).headers()["content-type"]).toBe("image/gif");
  const redirect = await request.get(click!, { headers: onHost, maxRedirects: 0 });
  expect(redirect.status()).toBe(302);
  expect(redirect.headers().location).toBe(`${LINK}&utm_source=newsletter&utm_campaign=spring`);
  // Someone else's host does not serve her link.
  expect((await request.get(click!, { headers: { ...onHost, host: "links.someone-else.example" }, maxRedirects: 0 })).status()).toBe(404);

  // The report counts the open and the click, under the link with its UTM parameters.
  await page.reload();
  await page.getByRole("tab", { name: "Report" }).click();
  const tile = (label: string) => page.getByRole("group", { name: label, exact: true });
  await expect(tile("Sent")).toContainText("2");
  await expect(tile("Opened")).toContainText("1 people · 1 opens");
  await expect(tile("Clicked")).toContainText("1 people · 1 clicks");
  const links = page.getByRole("table", { name: "Clicked links" }).getByRole("row");
  await expect(links).toHaveCount(2);
  await expect(links.nth(1)).toContainText("utm_campaign=spring");
  await finalScreenshot(page, testInfo, "tracking-report");

  // Back in Settings → Domains, the subdomain removed: its record goes, and the host is no longer served.
  await page.goto("/settings");
  await page
    .getByRole("tab", { name: /Domains|Sending/ })
    .first()
    .click();
  await expect(tracking.getByLabel("Tracking subdomain")).toHaveValue("links");
  await tracking.getByLabel("Tracking subdomain").fill("");
  await tracking.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Tracking host removed")).toBeVisible();
  await expect(cname).toHaveCount(0);
  await expect(tracking.getByRole("status")).toContainText("use the platform's host");
  const removed = (await api<{ data: { name: string }[] }>(page, "GET", "/v1/domains")).data.find((d) => d.name === domain);
  expect(removed).toMatchObject({ tracking_subdomain: null, tracking_active: false });
  expect((await request.get(`/t/tls?domain=${host}`)).status()).toBe(404);
  expect((await request.get(click!, { headers: onHost, maxRedirects: 0 })).status()).toBe(404);
});

test("a broadcast and its follow-up keep their tracking switches and UTM parameters", async ({ page }) => {
  await signUp(page, { name: "Ursula UTM", email: uniqueEmail("utm"), password: "correct horse battery", organizationName: "UTM Co" });
  await page.goto("/broadcasts");
  await page.getByRole("button", { name: "New broadcast" }).first().click();
  const create = page.getByRole("dialog", { name: "New broadcast" });
  await create.getByRole("textbox", { name: "Name", exact: true }).fill("Spring sale");
  await create.getByRole("textbox", { name: "Subject", exact: true }).fill("Our spring sale");
  await create.getByRole("button", { name: "Create draft" }).click();
  await page.waitForURL(/\/broadcasts\/[0-9a-f-]{36}$/);

  await expect(page.getByRole("switch", { name: "Track opens" })).toBeChecked();
  await page.getByRole("switch", { name: "Track clicks" }).click();
  await page.getByLabel("UTM source").fill("newsletter");
  await page.getByLabel("UTM campaign").fill("spring-sale");
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible({ timeout: 20_000 });

  await page.reload();
  await expect(page.getByRole("switch", { name: "Track clicks" })).not.toBeChecked();
  await expect(page.getByRole("switch", { name: "Track opens" })).toBeChecked();
  await expect(page.getByLabel("UTM source")).toHaveValue("newsletter");
  await expect(page.getByLabel("UTM medium")).toHaveValue("");
  const broadcastPath = page.url().replace(/.*\/broadcasts\//, "/v1/broadcasts/");
  expect(await (await page.request.get(broadcastPath)).json()).toMatchObject({
    track_opens: true,
    track_clicks: false,
    utm: { source: "newsletter", campaign: "spring-sale" },
  });

  await page.getByRole("button", { name: "Add follow-up" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Add follow-up 1" });
  await dialog.getByLabel("Subject").fill("Last day of the sale");
  await dialog.getByLabel("Plain text").fill("The sale ends tonight: https://shop.example/sale");
  await dialog.getByRole("switch", { name: "Track opens" }).click();
  await dialog.getByLabel("UTM medium").fill("email");
  await dialog.getByRole("button", { name: "Add follow-up" }).click();
  await expect(dialog).toBeHidden();

  const steps = await (await page.request.get(`${broadcastPath}/steps`)).json();
  expect(steps.data[0]).toMatchObject({ track_opens: false, track_clicks: true, utm: { medium: "email" } });
  await page.getByRole("button", { name: "Edit follow-up 1" }).click();
  const edit = page.getByRole("dialog", { name: "Edit follow-up 1" });
  await expect(edit.getByRole("switch", { name: "Track opens" })).not.toBeChecked();
  await expect(edit.getByLabel("UTM medium")).toHaveValue("email");
});
