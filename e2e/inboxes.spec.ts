import { startSmtpSink, type SmtpSink } from "../lib/testing/smtp-sink";
import { allowConsoleError, expect, finalScreenshot, signUp, test, uniqueEmail } from "./fixtures";

// The server admits the loopback sink through ALLOWED_PRIVATE_HOSTS (playwright.config.ts); the
// metadata address stays refused.
let sink: SmtpSink;
test.beforeAll(async () => {
  sink = await startSmtpSink();
});
test.afterAll(async () => {
  await sink?.close();
});

test("an inbox is unverified until the link mailed through its own server is followed, signed in or not", async ({ page, freshPage }, testInfo) => {
  await signUp(page, { name: "Ines Inbox", email: uniqueEmail("inbox-owner"), password: "password-123", organizationName: "Ines Bakery" });
  await page.goto("/settings?tab=inboxes");
  await expect(page.getByRole("heading", { name: "No inboxes connected" })).toBeVisible();
  await page.getByRole("button", { name: "Connect inbox" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Connect an inbox" });
  const address = uniqueEmail("sales").replace("@example.test", "@ines-mail.example");
  await dialog.getByLabel("Inbox name").fill("Sales");
  await dialog.getByLabel("From address").fill(address);

  // A server on the cloud metadata address is refused at once, on the field.
  allowConsoleError(page, /Failed to load resource.*400/);
  await dialog.getByLabel("SMTP host").fill("169.254.169.254");
  await dialog.getByRole("button", { name: "Connect inbox" }).click();
  await expect(dialog.getByText(/must be a public address/i)).toBeVisible();

  await dialog.getByLabel("SMTP host").fill(sink.host);
  await dialog.getByLabel("SMTP port").fill(String(sink.port));
  await dialog.getByRole("button", { name: "Connect inbox" }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByRole("row", { name: /Sales/ });
  await expect(row.getByText("Unverified")).toBeVisible();
  await row.getByRole("button", { name: "Send confirmation" }).click();
  await expect(page.getByText(`Confirmation sent to ${address}`)).toBeVisible();
  await expect(row.getByText("Confirmation sent")).toBeVisible();
  await expect(row.getByRole("button", { name: "Send again" })).toBeVisible();

  const mail = sink.messages.find((m) => m.envelopeTo.includes(address));
  expect(mail?.parsed.subject).toBe("Confirm your sender address");
  const link = /https?:\/\/\S+\/confirm-sender\/[A-Za-z0-9_-]+/.exec(mail?.parsed.text ?? "")?.[0];
  expect(link).toBeTruthy();

  // Whoever reads that mailbox confirms it, without an account here; opening the page alone does not.
  const reader = await freshPage();
  await reader.goto(new URL(link!).pathname);
  await expect(reader.getByRole("heading", { name: "Confirm your sender address" })).toBeVisible();
  await expect(reader.getByText(/Ines Bakery/)).toBeVisible();
  expect((await (await page.request.get("/v1/inboxes")).json()).data[0].verification.status).toBe("pending");
  await reader.getByRole("button", { name: `Confirm ${address}` }).click();
  await expect(reader.getByRole("status")).toHaveText(`${address} is confirmed. The inbox can send now.`);
  await reader.reload();
  await expect(reader.getByRole("heading", { name: "This confirmation link does not work" })).toBeVisible();

  await page.reload();
  await expect(page.getByRole("row", { name: /Sales/ }).getByText("Verified")).toBeVisible();
  expect((await (await page.request.get("/v1/inboxes")).json()).data[0].verification).toMatchObject({ status: "verified", method: "confirmation" });
  await finalScreenshot(page, testInfo, "inboxes-verified");
});
