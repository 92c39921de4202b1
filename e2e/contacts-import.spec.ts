import { writeFileSync } from "node:fs";
import { expect, finalScreenshot, signUp, test, uniqueEmail } from "./fixtures";

test.describe.configure({ timeout: 120_000 });

test("import a CSV with a custom mapping into a segment, then find, edit and delete contacts", async ({ page }, testInfo) => {
  await signUp(page, { name: "Ivy Import", email: uniqueEmail("import"), password: "correct horse battery", organizationName: "Import Co" });

  await page.goto("/segments");
  await page.getByRole("button", { name: "Static list" }).first().click();
  await page.getByRole("dialog").getByRole("textbox", { name: "Name", exact: true }).fill("Webinar leads");
  await page.getByRole("dialog").getByRole("button", { name: "Create segment" }).click();
  await expect(page.getByText("Created Webinar leads")).toBeVisible();

  const csv = testInfo.outputPath("leads.csv");
  writeFileSync(
    csv,
    [
      "Email Address;Given Name;Company;Labels;Notes",
      "ada@lovelace.test;Ada;Analytical Engines;vip,speaker;met at conf",
      "grace@hopper.test;Grace;Navy;speaker;",
      "not-an-email;Broken;Nowhere;;",
      "linus@torvalds.test;Linus;Kernel Org;;",
    ].join("\r\n"),
  );

  await page.goto("/contacts");
  await expect(page.getByRole("heading", { name: "No contacts yet" })).toBeVisible();
  await page.getByRole("link", { name: "Import CSV" }).first().click();
  await page.getByLabel("CSV file").setInputFiles(csv);
  await expect(page.getByText("4 rows · 5 columns · semicolon separated")).toBeVisible();
  await expect(page.getByRole("cell", { name: "ada@lovelace.test" }).first()).toBeVisible();

  // Guesses from the headers, then a custom mapping of our own.
  await expect(page.getByLabel("Import Email Address as")).toHaveValue("email");
  await expect(page.getByLabel("Import Given Name as")).toHaveValue("first_name");
  await expect(page.getByLabel("Import Labels as")).toHaveValue("tags");
  await expect(page.getByLabel("Import Company as")).toHaveValue("custom");
  await page.getByLabel("Property name for Company").fill("company_name");
  await page.getByLabel("Import Notes as").selectOption("ignore");
  await page.getByLabel("Add to segment").selectOption({ label: "Webinar leads" });
  await page.getByRole("button", { name: "Import 4 rows" }).click();

  await expect(page.getByRole("heading", { name: "Import finished" })).toBeVisible();
  await expect(page.getByText("Created", { exact: true }).locator("..")).toContainText("3");
  await expect(page.getByText("Skipped", { exact: true }).locator("..")).toContainText("1");
  await expect(page.getByRole("row", { name: /not-an-email/ })).toContainText("4");
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download as CSV" }).click();
  expect((await download).suggestedFilename()).toBe("leads-import-errors.csv");

  await page.getByRole("link", { name: "View contacts" }).click();
  await expect(page.getByLabel("Segment", { exact: true })).toHaveValue(/[0-9a-f-]{36}/);
  for (const email of ["ada@lovelace.test", "grace@hopper.test", "linus@torvalds.test"]) {
    await expect(page.getByRole("link", { name: email, exact: true })).toBeVisible();
  }
  await expect(page.getByText("3 total")).toBeVisible();
  // The first rows come with the page (its server component reads them), not after its scripts and the count.
  const served = await (await page.request.get(page.url())).text();
  for (const email of ["ada@lovelace.test", "grace@hopper.test", "linus@torvalds.test"]) expect(served).toContain(email);

  // Tag filter (AND): only Ada has both tags.
  const tagFilter = page.getByLabel("Filter by tags; contacts must have all of them");
  await tagFilter.fill("speaker");
  await tagFilter.press("Enter");
  await expect(page.getByText("2 total")).toBeVisible();
  await tagFilter.fill("vip");
  await tagFilter.press("Enter");
  await expect(page.getByText("1 total")).toBeVisible();
  await expect(page.getByRole("link", { name: "ada@lovelace.test", exact: true })).toBeVisible();

  // The custom column landed in metadata under our name.
  await page.getByRole("button", { name: "Actions for ada@lovelace.test" }).click();
  await page.getByRole("menuitem", { name: "Edit" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit contact" });
  await expect(dialog.getByLabel("Property 1 name")).toHaveValue("company_name");
  await expect(dialog.getByLabel("Property 1 value")).toHaveValue("Analytical Engines");
  await dialog.getByLabel("Last name").fill("Lovelace");
  await dialog.getByRole("button", { name: "Save contact" }).click();
  await expect(page.getByText("Contact saved")).toBeVisible();
  await expect(page.getByText("Ada Lovelace")).toBeVisible();

  // Search is debounced and matches names too.
  await page.getByRole("button", { name: "Clear", exact: true }).click();
  await page.getByLabel("Search contacts").fill("grace");
  await expect(page.getByText("1 total")).toBeVisible();
  await page.getByRole("button", { name: "Actions for grace@hopper.test" }).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete contact" }).click();
  await expect(page.getByText("Deleted grace@hopper.test")).toBeVisible();
  await expect(page.getByRole("heading", { name: "No contacts match" })).toBeVisible();

  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page.getByText("2 total")).toBeVisible();
  await finalScreenshot(page, testInfo, "contacts-after-import");
});
