import { execFileSync } from "node:child_process";
import { allowConsoleError, expect, finalScreenshot, signUp, test, uniqueEmail } from "./fixtures";

type Seeded = { email_id: string; reply_id: string; thread_id: string };

/** No API receives email, so the thread (sent email, reply, draft) is written with the app's Prisma client. */
function seedThread(userEmail: string): Seeded {
  const databaseUrl = `postgresql://postgres:postgres@127.0.0.1:${process.env.E2E_PG_PORT ?? "54349"}/mailplatform`;
  const out = execFileSync("npx", ["tsx", "e2e/seed-thread.ts", userEmail], { env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: "utf8" });
  return JSON.parse(out.slice(out.indexOf("{"))) as Seeded;
}

test.describe.configure({ timeout: 120_000 });

test("browse emails, open one in a sandbox, comment on it and discard its thread's draft", async ({ page }, testInfo) => {
  const email = uniqueEmail("emails");
  await signUp(page, { name: "Eli Emails", email, password: "correct horse battery", organizationName: "Emails Co" });
  const seeded = seedThread(email);
  // The seeded message carries a script, and Playwright's trace recorder evaluates one in every frame: the
  // sandbox refuses both, and Chromium logs each refusal.
  allowConsoleError(page, /Blocked script execution in 'about:srcdoc'/);

  // The first rows come with the page (its server component reads them), not after its scripts and the count.
  expect(await (await page.request.get("/emails")).text()).toContain("Quick question about your Q4 plans");
  await page.goto("/emails");
  await expect(page.getByText("2 total")).toBeVisible();
  await page.getByLabel("Filter by recipient").fill("lead-");
  await expect(page.getByText("1 total")).toBeVisible();
  const row = page.getByRole("row", { name: /Quick question about your Q4 plans/ });
  await expect(row.getByText("delivered", { exact: true })).toBeVisible();
  await expect(row).toContainText(/Opened .+ Clicked/);
  await page.getByLabel("Filter by recipient").fill("");
  await page.getByLabel("Status").selectOption("received");
  await expect(page.getByText("1 total")).toBeVisible();
  await expect(page.getByRole("row", { name: /Re: Quick question/ })).toBeVisible();
  await page.getByLabel("Status").selectOption("");
  await page
    .getByRole("link", { name: /lead-.*@prospect\.test/ })
    .last()
    .click();

  await page.waitForURL(`**/emails/${seeded.email_id}`);
  await expect(page.getByRole("heading", { name: /Quick question about your Q4 plans/ })).toBeVisible();
  const frame = page.locator('iframe[title^="Message:"]');
  await expect(frame).toHaveAttribute("sandbox", "");
  await expect(frame.contentFrame().getByRole("heading", { name: "Hi Grace," })).toBeVisible();
  await expect(frame.contentFrame().locator("body")).not.toContainText("hacked");
  await page.getByRole("tab", { name: /Headers/ }).click();
  await expect(page.getByText("List-Unsubscribe-Post")).toBeVisible();
  await expect(page.getByRole("complementary", { name: "About this email" })).toContainText("Clicked");

  const thread = page.getByRole("listitem").filter({ hasText: "Hi Ada, yes we are" });
  await expect(thread.getByText("received", { exact: true })).toBeVisible();

  await page.getByLabel("Add a comment").fill("Pricing goes out Friday — Eli");
  await page.getByRole("button", { name: "Comment", exact: true }).click();
  await expect(page.getByText("Comment added")).toBeVisible();
  await expect(page.getByRole("list", { name: "Comments" })).toContainText("Pricing goes out Friday — Eli");
  await expect(page.getByRole("list", { name: "Comments" })).toContainText("Eli Emails");

  await expect(page.getByRole("heading", { name: "Draft reply" })).toBeVisible();
  await expect(page.getByLabel("Reply", { exact: true })).toHaveValue("Hi Grace, thanks! Pricing for 200k contacts is attached.");
  await page.getByRole("button", { name: "Discard draft" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Discard draft" }).click();
  await expect(page.getByText("Draft discarded")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Write a reply" })).toBeVisible();
  const after = await (await page.request.get(`/v1/threads/${seeded.thread_id}`)).json();
  expect(after.draft).toBeNull();

  // A new draft can be saved again from the same card.
  await page.getByLabel("Reply", { exact: true }).fill("Let me check with the team.");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByText("Draft saved")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Draft reply" })).toBeVisible();

  await page.getByRole("link", { name: /Grace Hopper/ }).click();
  await page.waitForURL(`**/emails/${seeded.reply_id}`);
  await expect(page.getByRole("heading", { name: /Re: Quick question/ })).toBeVisible();
  await page.getByRole("link", { name: "Emails", exact: true }).first().click();
  await page
    .getByRole("link", { name: /lead-.*@prospect\.test/ })
    .last()
    .click();
  await expect(page.getByRole("list", { name: "Comments" })).toContainText("Pricing goes out Friday");
  await finalScreenshot(page, testInfo, "email-detail");

  // The prospect's page, from the contacts list: its timeline tells what happened, newest first.
  await page.getByRole("link", { name: "Contacts", exact: true }).first().click();
  await page.getByRole("link", { name: /lead-.*@prospect\.test/ }).click();
  await expect(page.getByRole("heading", { name: /Grace Hopper/ })).toBeVisible();
  const timeline = page.getByRole("list", { name: "Timeline" });
  await expect(timeline.getByRole("listitem")).toHaveText([
    /^demo_booked.*plan: pro.*seats: 12/,
    /^Clicked link in Quick question about your Q4 plans.*https:\/\/acme\.test\/demo/,
    /^Opened Quick question about your Q4 plans/,
    /^Delivered Quick question about your Q4 plans/,
    /^Sent Quick question about your Q4 plans/,
  ]);
  await expect(page.getByRole("list", { name: "Emails" })).toContainText("Re: Quick question about your Q4 plans");
  await expect(page.getByRole("complementary", { name: "About this contact" })).toContainText("Hopper");
  await finalScreenshot(page, testInfo, "contact-page");
  await timeline.getByRole("link", { name: "Quick question about your Q4 plans" }).first().click();
  await page.waitForURL(`**/emails/${seeded.email_id}`);
});
