import { expect, finalScreenshot, signUp, test, uniqueEmail } from "./fixtures";

test("add a webhook, copy its secret once, disable and enable it, and look at its deliveries", async ({ page }, testInfo) => {
  await signUp(page, { name: "Wes Webhook", email: uniqueEmail("webhooks"), password: "correct horse battery", organizationName: "Webhook Co" });
  await page.goto("/webhooks");
  await expect(page.getByRole("heading", { name: "No webhooks yet" })).toBeVisible();

  await page.getByRole("button", { name: "Add webhook" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Add webhook" });
  await dialog.getByLabel("Endpoint URL").fill("not a url");
  await dialog.getByRole("checkbox", { name: /All events/ }).click();
  await dialog.getByRole("button", { name: "Add webhook" }).click();
  await expect(dialog.getByText("must be an http or https URL")).toBeVisible();
  await dialog.getByLabel("Endpoint URL").fill("https://hooks.example.com/mail-events");
  await dialog.getByRole("button", { name: "Add webhook" }).click();

  const secret = page.getByRole("dialog", { name: "Webhook added" });
  await expect(secret.getByTestId("webhook-secret")).toHaveText(/^whsec_/);
  await secret.getByRole("button", { name: "I have saved the secret" }).click();
  await expect(secret).toBeHidden();

  const toggle = page.getByRole("switch", { name: "Enabled: https://hooks.example.com/mail-events" });
  await expect(toggle).toBeChecked();
  await expect(page.getByText("All events")).toBeVisible();
  await toggle.click();
  await expect(page.getByText("Webhook disabled")).toBeVisible();
  await expect(toggle).not.toBeChecked();
  let list = await (await page.request.get("/v1/webhooks")).json();
  expect(list.data[0].active).toBe(false);

  await toggle.click();
  await expect(page.getByText("Webhook enabled")).toBeVisible();
  await expect(toggle).toBeChecked();
  list = await (await page.request.get("/v1/webhooks")).json();
  expect(list.data[0].active).toBe(true);
  expect(list.data[0].secret).toBeUndefined();

  await page.getByRole("button", { name: "Deliveries" }).click();
  await expect(page.getByText(/No deliveries yet|Recent deliveries/).first()).toBeVisible();
  await finalScreenshot(page, testInfo, "webhooks");
});
