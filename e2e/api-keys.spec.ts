import { expect, finalScreenshot, signUp, test, uniqueEmail } from "./fixtures";

test("an API key is shown once, copies, works, and stops working when revoked", async ({ page, context, baseURL }, testInfo) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  await signUp(page, { name: "Kim Keys", email: uniqueEmail("keys"), password: "password-123" });
  await page.goto("/settings?tab=api-keys");
  await expect(page.getByText("No API keys yet")).toBeVisible();

  await page.getByRole("button", { name: "Create API key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create API key" });
  await dialog.getByLabel("Name").fill("CI pipeline");
  await dialog.getByRole("button", { name: "Create key" }).click();

  const tokenDialog = page.getByRole("dialog", { name: "Copy your new API key" });
  await expect(tokenDialog.getByText("This is the only time the key is shown")).toBeVisible();
  const token = (await tokenDialog.getByTestId("new-api-key-token").textContent())?.trim() ?? "";
  expect(token.length).toBeGreaterThan(40);
  await tokenDialog.getByRole("button", { name: "Copy" }).click();
  await expect(tokenDialog.getByRole("button", { name: "Copied", exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

  // The token works as a bearer credential (a Bearer header wins over the session cookie).
  const withKey = await page.request.fetch("/v1/api-keys", { headers: { Authorization: `Bearer ${token}` } });
  expect(withKey.status()).toBe(200);

  await tokenDialog.getByRole("button", { name: "I have copied it" }).click();
  await expect(tokenDialog).toBeHidden();
  // Never shown again: only its last characters are listed.
  await expect(page.getByText(token)).toHaveCount(0);
  const row = page.getByRole("row", { name: /CI pipeline/ });
  await expect(row).toContainText(`••••${token.slice(-4)}`);
  await expect(row).toContainText("Never");

  await row.getByRole("button", { name: "Revoke CI pipeline" }).click();
  const confirm = page.getByRole("alertdialog", { name: /Revoke “CI pipeline”/ });
  await expect(confirm).toContainText("401 Unauthorized");
  await confirm.getByRole("button", { name: "Revoke key" }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toContainText("revoked");

  const afterRevoke = await page.request.fetch("/v1/api-keys", { headers: { Authorization: `Bearer ${token}` } });
  expect(afterRevoke.status()).toBe(401);
  await finalScreenshot(page, testInfo, "api-key-revoked");
});
