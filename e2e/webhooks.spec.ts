import { Webhook } from "standardwebhooks";
import { startWebhookReceiver } from "../lib/testing/webhook-receiver";
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

test("a developer debugs a webhook: a sending key, a test event that arrives signed, its delivery log, a replay under the same id", async ({
  page,
}, testInfo) => {
  // Sign-up, two settings screens, the deliveries and the API reference: past the default minute on a loaded machine.
  test.setTimeout(120_000);
  const receiver = await startWebhookReceiver();
  try {
    await signUp(page, { name: "Dev Debug", email: uniqueEmail("hook-debug"), password: "correct horse battery", organizationName: "Debug Co" });

    // The application's key: it may send email, and nothing else.
    await page.goto("/settings?tab=api-keys");
    await page.getByRole("button", { name: "Create API key" }).click();
    const keyDialog = page.getByRole("dialog", { name: "Create API key" });
    await keyDialog.getByLabel("Name").fill("Order service");
    await keyDialog.getByRole("radio", { name: /Sending only/ }).click();
    await keyDialog.getByRole("button", { name: "Create key" }).click();
    const tokenDialog = page.getByRole("dialog", { name: "Copy your new API key" });
    const token = (await tokenDialog.getByTestId("new-api-key-token").textContent())?.trim() ?? "";
    await tokenDialog.getByRole("button", { name: "I have copied it" }).click();
    await expect(page.getByRole("row", { name: /Order service/ })).toContainText("Sending only");

    // Its endpoint: a real receiver on this machine (the e2e server admits 127.0.0.1).
    await page.goto("/webhooks");
    await page.getByRole("button", { name: "Add webhook" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Add webhook" });
    await dialog.getByLabel("Endpoint URL").fill(receiver.url);
    await dialog.getByRole("button", { name: "Add webhook" }).click();
    const secretDialog = page.getByRole("dialog", { name: "Webhook added" });
    const secret = (await secretDialog.getByTestId("webhook-secret").textContent())?.trim() ?? "";
    await secretDialog.getByRole("button", { name: "I have saved the secret" }).click();

    await page.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByText("Test event delivered")).toBeVisible();
    expect(receiver.received).toHaveLength(1);
    const test = new Webhook(secret).verify(receiver.received[0].body, receiver.received[0].headers as Record<string, string>) as {
      type: string;
      data: { webhook_id: string };
    };
    expect(test.type).toBe("webhook.test");

    // The sending key may not test (or read) webhooks.
    const refused = await page.request.post(`/v1/webhooks/${test.data.webhook_id}/test`, { headers: { Authorization: `Bearer ${token}` } });
    expect(refused.status()).toBe(403);
    expect(receiver.received).toHaveLength(1);

    // Its delivery: what was sent, what came back.
    await page.getByRole("button", { name: "Open the delivery of webhook.test" }).click();
    const delivery = page.getByRole("dialog", { name: "Delivery of webhook.test" });
    await expect(delivery.getByLabel("Request body", { exact: true })).toContainText('"type": "webhook.test"');
    const attempts = delivery.getByRole("region", { name: "Attempts" });
    await expect(attempts.getByText("Test event")).toBeVisible();
    await expect(attempts.getByLabel("Response body", { exact: true })).toHaveText("ok");
    await expect(attempts).toContainText(receiver.received[0].headers["webhook-signature"] as string);
    await expect(delivery).not.toContainText(secret.slice("whsec_".length));

    await delivery.getByRole("button", { name: "Replay" }).click();
    await expect(page.getByText("Delivered again")).toBeVisible();
    await expect(attempts.getByText("Replay", { exact: true })).toBeVisible();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1].headers["webhook-id"]).toBe(receiver.received[0].headers["webhook-id"]);
    new Webhook(secret).verify(receiver.received[1].body, receiver.received[1].headers as Record<string, string>);
    await finalScreenshot(page, testInfo, "webhook-delivery-replayed");

    // The API reference documents the operations and every event's payload, this one's included.
    await page.goto("/api-reference");
    await expect(page.getByRole("heading", { name: "Replay a delivery" })).toBeVisible();
    const payload = page.locator("#webhook-webhook-test");
    await expect(payload.getByRole("heading", { name: "webhook.test" })).toBeVisible();
    await expect(payload).toContainText("webhook_id");
  } finally {
    await receiver.close();
  }
});
