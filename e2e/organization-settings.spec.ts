import { expect, finalScreenshot, signUp, test, uniqueEmail } from "./fixtures";

test("an owner renames the organization and turns tracking off; both survive a reload", async ({ page }, testInfo) => {
  await signUp(page, { name: "Olga Owner", email: uniqueEmail("org"), password: "password-123", organizationName: "Olga's Shop" });
  await page.goto("/settings");
  await expect(page.getByRole("tab", { name: "Organization" })).toHaveAttribute("aria-selected", "true");

  const name = page.getByLabel("Name", { exact: true });
  await expect(name).toHaveValue("Olga's Shop");
  const save = page.getByRole("button", { name: "Save name" });
  await expect(save).toBeDisabled();
  await name.fill("");
  await save.click();
  await expect(page.getByText("Required")).toBeVisible();
  await name.fill("Olga & Co");
  await save.click();
  await expect(page.getByText("Organization renamed")).toBeVisible();
  await expect(page.getByRole("button", { name: /Organization: Olga & Co/ })).toBeVisible();

  const tracking = page.getByRole("switch", { name: "Open and click tracking" });
  await expect(tracking).toHaveAttribute("aria-checked", "true");
  await expect(page.getByText("A 1×1 pixel records opens")).toBeVisible();
  await tracking.click();
  await expect(page.getByText("Tracking turned off")).toBeVisible();
  await expect(tracking).toHaveAttribute("aria-checked", "false");

  await page.reload();
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Olga & Co");
  await expect(page.getByRole("switch", { name: "Open and click tracking" })).toHaveAttribute("aria-checked", "false");
  const stored = await page.request.get("/v1/organization");
  expect(await stored.json()).toMatchObject({ name: "Olga & Co", tracking_enabled: false, role: "owner" });
  await finalScreenshot(page, testInfo, "organization-settings");
});
