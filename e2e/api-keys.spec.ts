import { execFileSync } from "node:child_process";
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

/** A verified domain of the organization, added as an operator would (`npm run cli -- domain:create --verified`). */
function verifiedDomain(organizationId: string, name: string) {
  const databaseUrl = `postgresql://postgres:postgres@127.0.0.1:${process.env.E2E_PG_PORT ?? "54349"}/mailplatform`;
  execFileSync("npx", ["tsx", "cli/index.ts", "domain:create", "--organization", organizationId, "--name", name, "--verified"], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: "utf8",
  });
}

test("a sending key made in Settings sends from its domain only; the Emails screen shows its recipients, files and schedule, and cancels it", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await signUp(page, { name: "Sam Sender", email: uniqueEmail("sending"), password: "password-123" });
  // The domain first, so the key can be bound to it (created as the operator's command line does).
  const probe = await page.request.fetch("/v1/api-keys", { method: "POST", data: { name: "probe" }, headers: { Origin: new URL(page.url()).origin } });
  const organizationId = ((await probe.json()) as { organization_id: string }).organization_id;
  const domain = `app-${Date.now().toString(36)}.example.com`;
  verifiedDomain(organizationId, domain);

  await page.goto("/settings?tab=api-keys");
  await page.getByRole("button", { name: "Create API key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create API key" });
  await dialog.getByLabel("Name").fill("Shop app");
  await dialog.getByRole("radio", { name: /Sending only/ }).click();
  await dialog.getByLabel("Domain").selectOption({ label: domain });
  await dialog.getByRole("button", { name: "Create key" }).click();
  const tokenDialog = page.getByRole("dialog", { name: "Copy your new API key" });
  const token = (await tokenDialog.getByTestId("new-api-key-token").textContent())?.trim() ?? "";
  await tokenDialog.getByRole("button", { name: "I have copied it" }).click();
  await expect(page.getByRole("row", { name: /Shop app/ })).toContainText(`Sending from ${domain}`);

  const bearer = { Authorization: `Bearer ${token}` };
  // Reading anything is refused; a From at another domain too.
  expect((await page.request.fetch("/v1/contacts", { headers: bearer })).status()).toBe(403);
  const elsewhere = await page.request.fetch("/v1/emails", {
    method: "POST",
    headers: bearer,
    data: { from: "x@elsewhere.example", to: "a@example.net", subject: "S", text: "T" },
  });
  expect(elsewhere.status()).toBe(403);
  const scheduledAt = new Date(Date.now() + 2 * 3600_000).toISOString();
  const sent = await page.request.fetch("/v1/emails", {
    method: "POST",
    headers: bearer,
    data: {
      from: `Shop <orders@${domain}>`,
      to: ["ada@example.net", "bob@example.net"],
      cc: ["carol@example.net"],
      bcc: ["audit@example.net"],
      subject: "Your receipt",
      html: "<p>Thanks for your order.</p>",
      attachments: [{ filename: "receipt.pdf", content: Buffer.alloc(3000, 7).toString("base64") }],
      scheduled_at: scheduledAt,
    },
  });
  expect(sent.status()).toBe(201);
  const email = (await sent.json()) as { id: string };

  await page.goto("/emails");
  const row = page.getByRole("row", { name: /Your receipt/ });
  await expect(row).toContainText("+3 recipients");
  await expect(row).toContainText("scheduled");
  await row.getByRole("link").first().click();
  await page.waitForURL(`**/emails/${email.id}`);
  const about = page.getByRole("complementary", { name: "About this email" });
  await expect(about).toContainText("ada@example.net, bob@example.net");
  await expect(about).toContainText("carol@example.net");
  await expect(about).toContainText("audit@example.net");
  await expect(about.getByRole("list", { name: "Attachments" })).toContainText("receipt.pdf");
  await expect(about.getByRole("list", { name: "Attachments" })).toContainText("3 KB");

  await page.getByRole("button", { name: "Cancel scheduled email" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Cancel this scheduled email?" });
  await expect(confirm).toContainText("never sent");
  await confirm.getByRole("button", { name: "Cancel email" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole("heading", { name: /Your receipt/ })).toContainText("cancelled");
  await expect(page.getByRole("button", { name: "Cancel scheduled email" })).toHaveCount(0);
  await finalScreenshot(page, testInfo, "sending-key-email-cancelled");
});
