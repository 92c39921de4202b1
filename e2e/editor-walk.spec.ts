import type { Page } from "@playwright/test";
import { startSmtpSink, type SmtpSink } from "../lib/testing/smtp-sink";
import { allowConsoleError, expect, finalScreenshot, fromDashboard, signUp, test, uniqueEmail } from "./fixtures";

test.describe.configure({ timeout: 240_000 });

let sink: SmtpSink;
test.beforeAll(async () => {
  sink = await startSmtpSink();
});
test.afterAll(async () => {
  await sink?.close();
});

const shot = async (page: Page, name: string) => {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: false });
  await test.info().attach(name, { path: test.info().outputPath(`${name}.png`), contentType: "image/png" });
};

/**
 * One person, one session, screen to screen: connect an inbox in Settings, then write a broadcast
 * in the visual editor with that inbox as sender (the page that used to crash once the inbox list
 * was cached), preview it as a contact, send a test to a real SMTP server, run the checks, send it.
 */
test("connect an inbox, write a broadcast visually, preview it as a contact, test it, check it and send it", async ({ page, freshPage }, testInfo) => {
  const owner = uniqueEmail("marketer");
  await signUp(page, { name: "Mia Marketer", email: owner, password: "correct horse battery", organizationName: "Walk Co" });

  // An audience, through the same API the dashboard uses.
  const pat = uniqueEmail("pat");
  const contact = await page.request.post("/v1/contacts", { data: { email: pat, first_name: "Pat", metadata: { plan: "pro" } }, headers: fromDashboard(page) });
  expect(contact.status()).toBe(201);
  const segment = await page.request.post("/v1/segments", { data: { name: "Readers" }, headers: fromDashboard(page) });
  expect(segment.status()).toBe(201);
  expect(
    (await page.request.post(`/v1/segments/${(await segment.json()).id}/contacts`, { data: { emails: [pat] }, headers: fromDashboard(page) })).status(),
  ).toBe(200);

  // Settings → Inboxes: connect one whose SMTP server is the sink.
  await page.getByRole("link", { name: "Settings" }).first().click();
  await page.getByRole("tab", { name: /Inboxes/ }).click();
  await page.getByRole("button", { name: "Connect inbox" }).first().click();
  const inboxDialog = page.getByRole("dialog");
  await inboxDialog.getByLabel("Inbox name").fill("Mia's mailbox");
  await inboxDialog.getByLabel("From address").fill("mia@walk.test");
  await inboxDialog.getByLabel("From name").fill("Mia from Walk");
  await inboxDialog.getByLabel("SMTP host").fill(sink.host);
  await inboxDialog.getByLabel("SMTP port").fill(String(sink.port));
  await inboxDialog.getByRole("button", { name: "Connect inbox" }).click();
  await expect(inboxDialog).toBeHidden();
  await expect(page.getByRole("cell", { name: /^Mia's mailbox/ })).toBeVisible();
  // It sends once its address is proven: the link mailed through its own server, followed by its reader.
  const row = page.getByRole("row", { name: /Mia's mailbox/ });
  await row.getByRole("button", { name: "Send confirmation" }).click();
  await expect(page.getByText("Confirmation sent to mia@walk.test")).toBeVisible();
  const confirmation = (await sink.waitFor(1)).find((m) => m.envelopeTo.includes("mia@walk.test"));
  const confirmLink = /https?:\/\/\S+\/confirm-sender\/[A-Za-z0-9_-]+/.exec(confirmation?.parsed.text ?? "")?.[0];
  expect(confirmLink).toBeTruthy();
  const reader = await freshPage();
  await reader.goto(new URL(confirmLink!).pathname);
  await reader.getByRole("button", { name: "Confirm mia@walk.test" }).click();
  await expect(reader.getByRole("status")).toHaveText("mia@walk.test is confirmed. The inbox can send now.");
  await page.reload();
  await expect(page.getByRole("row", { name: /Mia's mailbox/ }).getByText("Verified")).toBeVisible();

  // Broadcasts → a new draft, in the same session (the inbox list is in the cache now).
  await page.getByRole("link", { name: "Broadcasts" }).first().click();
  await page.getByRole("button", { name: "New broadcast" }).first().click();
  const create = page.getByRole("dialog", { name: "New broadcast" });
  await create.getByRole("textbox", { name: "Name", exact: true }).fill("Spring letter");
  await create.getByRole("textbox", { name: "Subject", exact: true }).fill("Spring news for {{first_name|you}}");
  await create.getByRole("button", { name: "Create draft" }).click();
  await page.waitForURL(/\/broadcasts\/[0-9a-f-]{36}$/);
  const broadcastId = page.url().split("/").pop()!;

  await page.getByLabel("Inbox", { exact: true }).selectOption({ label: "Mia's mailbox <mia@walk.test>" });
  await expect(page.getByRole("textbox", { name: "From address" })).toHaveValue("mia@walk.test");
  await page.getByLabel("Preview text").fill("Three things worth your time");
  await page.locator("select[name=segment_id]").selectOption({ label: "Readers (1)" });
  await page.getByRole("combobox", { name: "Sending speed" }).click();
  await page.getByRole("option", { name: /^Instant/ }).click();

  // The visual editor: a heading with a placeholder, a paragraph with a link, a button.
  const content = page.getByRole("textbox", { name: "Email content" });
  await expect(content).toBeVisible();
  await content.click();
  await page.getByRole("button", { name: "Heading 1" }).click();
  await page.keyboard.type("Hello ");
  await page.getByRole("button", { name: "Placeholder" }).click();
  const placeholder = page.getByRole("dialog", { name: "Insert placeholder" });
  await placeholder.getByLabel("Field").selectOption("first_name");
  await placeholder.getByLabel("Fallback").fill("there");
  await placeholder.getByRole("button", { name: "Insert" }).click();
  await expect(content.locator("h1")).toContainText("Hello {{first_name|there}}");
  // The dialog gives the focus back to the editor a moment after it closes: keys typed before that
  // were lost (an Enter and a word, once, on a loaded machine).
  await expect(content).toBeFocused();
  await page.keyboard.press("Enter");
  await page.keyboard.type("Read our spring news");
  // Select the word "news", as a double-click would.
  await content.locator("p", { hasText: "Read our spring news" }).evaluate((paragraph) => {
    const text = paragraph.firstChild!;
    const range = document.createRange();
    range.setStart(text, text.textContent!.indexOf("news"));
    range.setEnd(text, text.textContent!.indexOf("news") + 4);
    const selection = window.getSelection()!;
    selection.removeAllRanges();
    selection.addRange(range);
  });
  await expect.poll(() => page.evaluate(() => window.getSelection()?.toString())).toBe("news");
  await page.keyboard.press("ControlOrMeta+k");
  const link = page.getByRole("dialog", { name: "Link" });
  await link.getByLabel("Link address").fill("https://example.com/spring");
  await link.getByRole("button", { name: "Apply" }).click();
  await expect(content.getByRole("link", { name: "news" })).toHaveAttribute("href", "https://example.com/spring");
  await content.getByText("Read our spring").click();
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await page.getByRole("button", { name: "Insert button" }).click();
  const button = page.getByRole("dialog", { name: "Button" });
  await button.getByLabel("Button text").fill("See the collection");
  await button.getByLabel("Button link").fill("https://example.com/shop");
  await button.getByRole("button", { name: "Add" }).click();
  await page.getByRole("button", { name: "Insert footer" }).click();
  // Autosave, then the saved document and its server-rendered HTML.
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible({ timeout: 20_000 });
  const saved = await (await page.request.get(`/v1/broadcasts/${broadcastId}`)).json();
  expect(saved.inbox_id).not.toBeNull();
  expect(saved.content_json.content.map((b: { type: string }) => b.type)).toEqual(expect.arrayContaining(["heading", "paragraph", "button", "footer"]));
  expect(saved.html_content).toContain('href="https://example.com/spring"');
  await shot(page, "editor");

  // Undo and redo are there, and do what they say.
  await content.click();
  await page.keyboard.press("ControlOrMeta+End");
  await page.keyboard.type("Wow");
  await expect(content).toContainText("Wow");
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(content).not.toContainText("Wow");
  await page.getByRole("button", { name: "Redo" }).click();
  await expect(content).toContainText("Wow");
  await page.keyboard.press("ControlOrMeta+z");
  await expect(content).not.toContainText("Wow");

  // Preview as Pat: the inbox row and the email with Pat's name, then on a phone in dark mode.
  allowConsoleError(page, /^Blocked script execution in 'about:srcdoc' because the document's frame is sandboxed/);
  await page.getByRole("button", { name: "Preview" }).click();
  const preview = page.getByRole("dialog", { name: "Preview" });
  await preview.getByRole("searchbox", { name: /Preview as/ }).fill(pat.slice(0, 12));
  await preview.getByRole("button", { name: new RegExp(pat.replace(/[.+]/g, "\\$&")) }).click();
  await expect(preview.getByRole("group", { name: "Inbox row" })).toContainText("Spring news for Pat");
  await expect(preview.getByRole("group", { name: "Inbox row" })).toContainText("Three things worth your time");
  // The frame is sandboxed without scripts. Chromium logs "Blocked script execution in
  // 'about:srcdoc'" for it in this page (not for the same HTML on a bare page, and the HTML has no
  // script, handler or javascript: link, as checked here): that one message is the sandbox at
  // work (allowed before the preview opens). Playwright's own script cannot run in it either, so
  // the HTML is read from its srcdoc.
  const frame = preview.locator('iframe[title="Email preview"]');
  await expect(frame).toHaveAttribute("sandbox", "");
  await expect(frame).not.toHaveAttribute("srcdoc", /<script|\son[a-z]+\s*=|javascript:/i);
  await expect(frame).toHaveAttribute("srcdoc", /<h1[^>]*>Hello Pat\s*<\/h1>/);
  await preview.getByRole("button", { name: "Mobile" }).click();
  await preview.getByRole("button", { name: "Dark" }).click();
  await expect(frame).toHaveClass(/w-\[375px\]/);
  await expect(frame).toHaveAttribute("srcdoc", /filter:invert\(1\)/);
  await shot(page, "preview-mobile-dark");
  await preview.getByRole("button", { name: "Close" }).click();

  // A test to the signed-in user, rendered as Pat, read back from a real SMTP server.
  const before = sink.messages.length;
  await page.getByRole("button", { name: "Send test" }).click();
  const testDialog = page.getByRole("dialog", { name: "Send a test" });
  await expect(testDialog.getByLabel("Send to")).toHaveValue(owner);
  await testDialog.getByRole("button", { name: "Send test" }).click();
  await expect(page.getByText(`Test sent to ${owner}`)).toBeVisible();
  const [mail] = (await sink.waitFor(before + 1)).slice(before);
  expect(mail.envelopeTo).toEqual([owner]);
  expect(mail.parsed.subject).toBe("[Test] Spring news for Pat");
  expect(mail.parsed.from?.value[0]).toMatchObject({ address: "mia@walk.test", name: "Mia from Walk" });
  expect(mail.parsed.html).toMatch(/<h1[^>]*>Hello Pat\s*<\/h1>/);
  expect(mail.parsed.html).toContain('href="https://example.com/spring"');
  expect(mail.parsed.text).toContain("Hello Pat");
  expect(mail.parsed.text).toContain("news (https://example.com/spring)");
  expect(mail.parsed.text).toContain("See the collection (https://example.com/shop)");
  const counts = await (await page.request.get(`/v1/broadcasts/${broadcastId}`)).json();
  expect(counts).toMatchObject({ status: "draft", total_recipients: 0, sent_count: 0 });

  // Send now: the pre-send checks first.
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible({ timeout: 20_000 });
  await page.getByRole("button", { name: "Send now" }).click();
  const send = page.getByRole("dialog", { name: "Send this broadcast now?" });
  const checks = send.getByRole("list", { name: "Pre-send checks" });
  await expect(checks).toBeVisible({ timeout: 60_000 });
  await expect(checks).toContainText("Links");
  await expect(checks).toContainText("Unsubscribe link");
  await shot(page, "presend-checks");
  await send.getByRole("button", { name: /^Send now( anyway)?$/ }).click();
  await expect(page.getByText("Sending started")).toBeVisible();
  // The worker beside the server sends it through the inbox to the sink.
  const delivered = await sink.waitFor(before + 2, 60_000);
  const real = delivered.slice(before + 1).find((m) => m.envelopeTo.includes(pat))!;
  expect(real.parsed.subject).toBe("Spring news for Pat");
  expect(real.parsed.html).toMatch(/Hello Pat/);
  await finalScreenshot(page, testInfo, "editor-walk");
});
