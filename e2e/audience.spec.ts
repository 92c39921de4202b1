import type { Page } from "@playwright/test";
import { expect, finalScreenshot, signUp, test, uniqueEmail } from "./fixtures";

test.describe.configure({ timeout: 120_000 });

/** Adds a contact through the dialog, with one custom property. */
async function addContact(page: Page, email: string, property?: { key: string; value: string }) {
  await page.getByRole("button", { name: "Add contact" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Add contact" });
  await dialog.getByLabel("Email").fill(email);
  if (property) {
    await dialog.getByRole("button", { name: "Add property" }).click();
    await dialog.getByLabel("Property 1 name").fill(property.key);
    // A typed key gets an input of its type.
    await expect(dialog.getByText("Typed number")).toBeVisible();
    await dialog.getByLabel("Property 1 value").fill(property.value);
  }
  await dialog.getByRole("button", { name: "Add contact" }).click();
  await expect(page.getByText(`Added ${email}`)).toBeVisible();
}

test("type a property, build a dynamic segment with a live count, and see a contact join it when its property changes", async ({ page }, testInfo) => {
  await signUp(page, { name: "Dee Dynamic", email: uniqueEmail("audience"), password: "correct horse battery", organizationName: "Audience Co" });

  // Settings → Properties: a number property.
  await page.getByRole("link", { name: "Settings", exact: true }).click();
  await page.getByRole("tab", { name: "Properties" }).click();
  await expect(page.getByRole("heading", { name: "No properties yet" })).toBeVisible();
  await page.getByRole("button", { name: "Add property" }).first().click();
  const propertyDialog = page.getByRole("dialog", { name: "Add a property" });
  await propertyDialog.getByLabel("Key").fill("seats");
  await propertyDialog.getByLabel("Label").fill("Seats");
  await propertyDialog.getByRole("combobox", { name: "Type" }).click();
  await page.getByRole("option", { name: /^Number/ }).click();
  await propertyDialog.getByRole("button", { name: "Add property" }).click();
  await expect(page.getByText("Added Seats")).toBeVisible();
  const propertyRow = page.getByRole("row", { name: /Seats/ });
  await expect(propertyRow).toContainText("metadata.seats");
  await expect(propertyRow).toContainText("Number");

  // Three contacts: a big team, a small one, one without the property.
  await page.getByRole("link", { name: "Contacts", exact: true }).click();
  const big = uniqueEmail("big");
  const small = uniqueEmail("small");
  await addContact(page, big, { key: "seats", value: "12" });
  await addContact(page, small, { key: "seats", value: "2" });
  await addContact(page, uniqueEmail("none"));

  // A dynamic segment built with the builder; the count follows every change.
  await page.getByRole("link", { name: "Segments", exact: true }).click();
  await page.getByRole("link", { name: "Dynamic segment" }).first().click();
  await expect(page.getByRole("heading", { name: "New dynamic segment" })).toBeVisible();
  const count = page.getByTestId("preview-count");
  await expect(count).toHaveText("3");
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("Big teams");
  await page.getByRole("button", { name: "Condition", exact: true }).click();
  await page.getByLabel("Filter condition 1: field").selectOption({ label: "Seats" });
  await page.getByLabel("Filter condition 1: comparison").selectOption({ label: "is at least" });
  await expect(page.getByText("One condition needs a value before the count updates.")).toBeVisible();
  await page.getByLabel("Filter condition 1: value").fill("5");
  await expect(count).toHaveText("1");
  await expect(page.getByTestId("preview-sample")).toContainText(big);
  await page.getByLabel("Filter condition 1: value").fill("1");
  await expect(count).toHaveText("2");
  await page.getByLabel("Filter condition 1: value").fill("10");
  await expect(count).toHaveText("1");
  await page.getByRole("button", { name: "Create segment" }).click();
  await expect(page.getByText("Created Big teams")).toBeVisible();
  await page.waitForURL(/\/segments$/);
  const segmentRow = page.getByRole("row", { name: /Big teams/ });
  await expect(segmentRow).toContainText("Dynamic");
  await expect(segmentRow.getByRole("link", { name: "1 contacts in Big teams; show them" })).toBeVisible();

  // The small team grows: it is in the segment from then on, with nothing else to do.
  await page.getByRole("link", { name: "Contacts", exact: true }).click();
  await page.getByRole("button", { name: `Actions for ${small}` }).click();
  await page.getByRole("menuitem", { name: "Edit" }).click();
  const editDialog = page.getByRole("dialog", { name: "Edit contact" });
  await editDialog.getByLabel("Property 1 value").fill("25");
  await editDialog.getByRole("button", { name: "Save contact" }).click();
  await expect(page.getByText("Contact saved")).toBeVisible();

  await page.getByRole("link", { name: "Segments", exact: true }).click();
  await page
    .getByRole("row", { name: /Big teams/ })
    .getByRole("link", { name: "2 contacts in Big teams; show them" })
    .click();
  await expect(page).toHaveURL(/\/contacts\?segment_id=/);
  await expect(page.getByRole("button", { name: `Actions for ${small}` })).toBeVisible();
  await expect(page.getByRole("button", { name: `Actions for ${big}` })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Actions for / })).toHaveCount(2);

  // The grown team's page, from that list: the segment it matches, its property, and what happened to it.
  await page.getByRole("link", { name: small, exact: true }).click();
  await expect(page.getByRole("heading", { name: small })).toBeVisible();
  const about = page.getByRole("complementary", { name: "About this contact" });
  await expect(about.getByRole("list", { name: "Segments" })).toContainText("Big teams");
  await expect(about.getByRole("list", { name: "Segments" })).toContainText("matches its filter");
  await expect(about.getByRole("definition").filter({ hasText: "25" })).toBeVisible();
  await expect(about).toContainText("The organization's");
  await expect(page.getByText("No topics yet.")).toBeVisible();
  const timeline = page.getByRole("list", { name: "Timeline" });
  await expect(timeline.getByRole("listitem")).toHaveText([/^Updated properties/, /^Became a contact/]);

  // Edited from its page: the header, its details and its timeline follow without a reload.
  await page.getByRole("button", { name: "Edit contact" }).click();
  const pageDialog = page.getByRole("dialog", { name: "Edit contact" });
  await pageDialog.getByLabel("First name").fill("Sam");
  await pageDialog.getByLabel("Time zone").selectOption("Asia/Tokyo");
  await pageDialog.getByRole("button", { name: "Save contact" }).click();
  await expect(pageDialog).toBeHidden();
  await expect(page.getByRole("heading", { name: /^Sam/ })).toBeVisible();
  await expect(about).toContainText("Asia/Tokyo");
  await expect(timeline.getByRole("listitem")).toHaveText([/^Updated first name, time zone/, /^Updated properties/, /^Became a contact/]);
  await finalScreenshot(page, testInfo, "contact-page-timeline");
  await page.getByRole("link", { name: "Contacts", exact: true }).first().click();
  await expect(page.getByRole("link", { name: small, exact: true })).toBeVisible();

  // Editing the segment opens the builder with its condition, and its live count.
  await page.getByRole("link", { name: "Segments", exact: true }).click();
  await page.getByRole("link", { name: "Big teams", exact: true }).click();
  await expect(page.getByLabel("Filter condition 1: value")).toHaveValue("10");
  await expect(page.getByTestId("preview-count")).toHaveText("2");
  await finalScreenshot(page, testInfo, "dynamic-segment-editor");
});
