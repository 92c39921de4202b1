import { allowConsoleError, expect, finalScreenshot, signUp, test, uniqueEmail } from "./fixtures";

test("create a segment and a template with a live preview, then delete the segment keeping its contacts", async ({ page }, testInfo) => {
  // Playwright's trace recorder evaluates a script in every frame; the preview's sandbox refuses it and Chromium logs that.
  allowConsoleError(page, /Blocked script execution in 'about:srcdoc'/);
  await signUp(page, { name: "Sam Segment", email: uniqueEmail("segments"), password: "correct horse battery", organizationName: "Segment Co" });

  await page.getByRole("link", { name: "Segments" }).click();
  await expect(page.getByRole("heading", { name: "No segments yet" })).toBeVisible();
  await page.getByRole("button", { name: "Static list" }).first().click();
  const segmentDialog = page.getByRole("dialog", { name: "Create segment" });
  await segmentDialog.getByRole("textbox", { name: "Name", exact: true }).fill("Trial users");
  await segmentDialog.getByLabel("Description").fill("Signed up in the last 30 days");
  await segmentDialog.getByRole("button", { name: "Create segment" }).click();
  await expect(page.getByText("Created Trial users")).toBeVisible();
  const row = page.getByRole("row", { name: /Trial users/ });
  await expect(row).toContainText("Signed up in the last 30 days");
  await expect(row.getByRole("link", { name: /0 contacts in Trial users/ })).toBeVisible();

  await page.getByRole("link", { name: "Templates" }).click();
  await page.getByRole("link", { name: "New template" }).first().click();
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("Welcome");
  await page.getByRole("textbox", { name: "Subject", exact: true }).fill("Welcome to {{company|our team}}, {{first_name|friend}}");
  await page.getByLabel("Preview text").fill("Your plan: {{plan}}");
  // The variables found so far, from the subject, the preview text and the starter HTML.
  const chips = page.locator("[aria-live=polite]").filter({ hasText: "Variables" });
  await expect(chips).toContainText("company");
  await expect(chips).toContainText("first_name");
  await expect(chips).toContainText("plan");
  const preview = page.locator('iframe[title="Live preview of the template"]');
  await expect(preview).toHaveAttribute("sandbox", "");
  await expect(preview.contentFrame().getByRole("heading", { name: "Hi there," })).toBeVisible();
  await expect(page.getByText("Welcome to our team, friend")).toBeVisible();
  await page.getByRole("button", { name: "Create template" }).click();
  await expect(page.getByText("Created Welcome")).toBeVisible();
  await page.waitForURL(/\/templates\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: "Welcome", exact: true })).toBeVisible();

  await page.getByRole("link", { name: "Templates" }).first().click();
  const templateRow = page.getByRole("row", { name: /Welcome/ });
  await expect(templateRow).toContainText("company");
  await expect(templateRow).toContainText("first_name");

  await page.getByRole("link", { name: "Segments" }).click();
  await page.getByRole("button", { name: "Actions for Trial users" }).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText("contacts are kept");
  await confirm.getByRole("button", { name: "Delete segment" }).click();
  await expect(page.getByText("Deleted Trial users")).toBeVisible();
  await expect(page.getByRole("heading", { name: "No segments yet" })).toBeVisible();

  await page.getByRole("link", { name: "Templates" }).click();
  await expect(page.getByRole("row", { name: /Welcome/ })).toBeVisible();
  await finalScreenshot(page, testInfo, "templates-list");
});
