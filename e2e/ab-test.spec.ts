import { execFileSync } from "node:child_process";
import { startSmtpSink, type ReceivedMail, type SmtpSink } from "../lib/testing/smtp-sink";
import { api, expect, finalScreenshot, signUp, test, uniqueEmail } from "./fixtures";

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/** The test's wait, over: the winner is due (the worker chooses it in its next round). */
function winnerDueNow(broadcastId: string) {
  const databaseUrl = `postgresql://postgres:postgres@127.0.0.1:${process.env.E2E_PG_PORT ?? "54349"}/mailplatform`;
  execFileSync("npx", ["tsx", "e2e/seed-ab-decide.ts", broadcastId], { env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: "utf8" });
}

const pixelOf = (mail: ReceivedMail) => /<img src="([^"]+\/t\/o\/[^"]+)"/.exec(String(mail.parsed.html))![1];

let sink: SmtpSink;
test.beforeAll(async () => {
  sink = await startSmtpSink();
});
test.afterAll(async () => {
  await sink?.close();
});
test.describe.configure({ timeout: 240_000 });

test("set up an A/B test of two subjects, send it, watch the winner go to the rest, read the report and resend to non-openers", async ({
  page,
  freshPage,
  request,
}, testInfo) => {
  const owner = uniqueEmail("abtest");
  await signUp(page, { name: "Abe Tester", email: owner, password: "correct horse battery", organizationName: "AB Co" });
  const tag = Date.now().toString(36);
  const inbox = await api<{ id: string }>(page, "POST", "/v1/inboxes", {
    name: "News inbox",
    from_email: `news-${tag}@abtest.test`,
    daily_limit: 100,
    smtp: { host: sink.host, port: sink.port, secure: false, username: "news", password: "secret" },
  });
  await api(page, "POST", `/v1/inboxes/${inbox.id}/send-confirmation`);
  const confirmation = (await sink.waitFor(1, 30_000)).find((m) => m.parsed.subject === "Confirm your sender address")!;
  const confirmLink = /https?:\/\/\S+\/confirm-sender\/[A-Za-z0-9_-]+/.exec(confirmation.parsed.text ?? "")![0];
  const reader = await freshPage();
  await reader.goto(new URL(confirmLink).pathname);
  await reader.getByRole("button", { name: `Confirm news-${tag}@abtest.test` }).click();
  await expect(reader.getByRole("status")).toContainText("is confirmed");

  const emails = Array.from({ length: 8 }, (_, i) => `reader${i}-${tag}@example.test`);
  await api(page, "POST", "/v1/contacts/bulk", { contacts: emails.map((email) => ({ email })) });
  const segment = await api<{ id: string }>(page, "POST", "/v1/segments", { name: `Readers ${tag}` });
  await api(page, "POST", `/v1/segments/${segment.id}/contacts`, { emails });
  const broadcast = await api<{ id: string }>(page, "POST", "/v1/broadcasts", {
    name: "Spring test",
    subject: "Spring is here",
    inbox_id: inbox.id,
    segment_id: segment.id,
    sending_speed: "instant",
    html_content: "<html><body><h1>Spring</h1><p>New things for spring.</p></body></html>",
  });

  // The A/B card: on, a second subject, half the list tested, the winner by opens after an hour.
  await page.goto(`/broadcasts/${broadcast.id}`);
  await page.getByRole("switch", { name: "Test variants of this email" }).click();
  await expect(page.getByLabel("Variant A subject")).toHaveValue("Spring is here");
  await page.getByLabel("Variant B subject").fill("Spring has sprung");
  await page.getByLabel("Test share (%)").fill("50");
  await page.getByLabel("Pick the winner by").selectOption("unique_opens");
  await page.getByLabel("Choose the winner after").selectOption({ label: "1 hour" });
  await expect(page.getByText("25 % of the audience per variant")).toBeVisible();
  await page.getByRole("button", { name: "Save changes" }).first().click();
  await expect(page.getByText("Changes saved")).toBeVisible();
  const saved = await api<{ variants: { subject: string }[]; ab_test: unknown }>(page, "GET", `/v1/broadcasts/${broadcast.id}`);
  expect(saved.variants.map((v) => v.subject)).toEqual(["Spring is here", "Spring has sprung"]);
  expect(saved.ab_test).toEqual({ test_percent: 50, metric: "unique_opens", wait_minutes: 60 });

  await page.getByRole("button", { name: "Send now" }).click();
  await page
    .getByRole("dialog", { name: "Send this broadcast now?" })
    .getByRole("button", { name: /^Send now( anyway)?$/ })
    .click({ timeout: 60_000 });
  const ours = (mails: ReceivedMail[]) => mails.filter((m) => m.envelopeTo[0]?.endsWith(`-${tag}@example.test`));
  // Half of eight is the test share: two of each variant, and nobody else yet.
  await expect.poll(async () => ours(sink.messages).length, { timeout: 60_000 }).toBe(4);
  const test = ours(sink.messages);
  expect(test.filter((m) => m.parsed.subject === "Spring is here")).toHaveLength(2);
  expect(test.filter((m) => m.parsed.subject === "Spring has sprung")).toHaveLength(2);

  // Both readers of B open it; nobody opens A.
  for (const mail of test.filter((m) => m.parsed.subject === "Spring has sprung")) {
    expect((await request.get(pixelOf(mail), { headers: { "user-agent": CHROME } })).status()).toBe(200);
  }
  // A reloaded page of the production build: up to 30 s to render on a loaded 2-core machine (over 10 at load 17).
  const afterReload = { timeout: 30_000 };
  await page.reload();
  await expect(page.getByText(/The test share is on its way\. The winner is chosen once it has all gone out/)).toBeVisible(afterReload);
  await page.getByRole("tab", { name: "Report" }).click();
  const variants = page.getByRole("table", { name: "Variants" });
  // The report's code loads when its tab is first opened.
  await expect(variants.getByRole("row")).toHaveCount(3, afterReload);
  await expect(variants.getByRole("row").nth(2)).toContainText("Spring has sprung");
  await expect(variants.getByRole("row").nth(2)).toContainText("2 (100.0%)");
  await expect(page.getByText(/The winner is chosen once the test share has all gone out and had its wait .*then sent to the rest/)).toBeVisible();

  // The wait is over: the worker chooses B and sends it to the four others.
  winnerDueNow(broadcast.id);
  await expect.poll(async () => ours(sink.messages).length, { timeout: 60_000 }).toBe(8);
  expect(
    ours(sink.messages)
      .slice(4)
      .every((m) => m.parsed.subject === "Spring has sprung"),
  ).toBe(true);
  await page.reload();
  await expect(variants.getByRole("row").nth(2)).toContainText("Winner", afterReload);
  await expect(variants.getByRole("row").nth(1)).not.toContainText("Winner");
  await expect(page.getByText(/Variant B's open rate \(100\.0 %\) against Variant A's \(0\.0 %\)/)).toBeVisible();
  await finalScreenshot(page, testInfo, "ab-report");

  // Resend to the six who did not open, with another subject: a new draft, opened in the editor.
  await page.getByRole("button", { name: "Resend to non-openers" }).click();
  const dialog = page.getByRole("dialog", { name: "Resend to non-openers" });
  await dialog.getByLabel("New subject").fill("Spring, in case you missed it");
  await dialog.getByRole("button", { name: "Create the draft" }).click();
  await expect(page.getByRole("heading", { name: "Spring test (resend to non-openers)" })).toBeVisible();
  const resendId = page.url().split("/broadcasts/")[1].split("?")[0];
  const resend = await api<{ subject: string; segment_id: string; resend_of_id: string }>(page, "GET", `/v1/broadcasts/${resendId}`);
  expect(resend).toMatchObject({ subject: "Spring, in case you missed it", resend_of_id: broadcast.id });
  expect((await api<{ contacts_count: number }>(page, "GET", `/v1/segments/${resend.segment_id}`)).contacts_count).toBe(6);
  await finalScreenshot(page, testInfo, "ab-resend-draft");
});
