import { execFileSync } from "node:child_process";
import { expect, finalScreenshot, signUp, test, uniqueEmail } from "./fixtures";

test.describe.configure({ timeout: 120_000 });

/** The e2e server asks no DNS server of ours, so what a check found is written with the app's Prisma client. */
function seedTrackingCheck(domainId: string) {
  const databaseUrl = `postgresql://postgres:postgres@127.0.0.1:${process.env.E2E_PG_PORT ?? "54349"}/mailplatform`;
  execFileSync("npx", ["tsx", "e2e/seed-tracking-check.ts", domainId], { env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: "utf8" });
}

test("a domain's tracking subdomain: its CNAME among the records, pending, then in use once seen, then removed", async ({ page }, testInfo) => {
  await signUp(page, { name: "Tia Tracking", email: uniqueEmail("tracking"), password: "correct horse battery", organizationName: "Tracking Co" });
  await page.goto("/settings");
  await page
    .getByRole("tab", { name: /Domains|Sending/ })
    .first()
    .click();
  await page.getByRole("button", { name: "Add domain" }).first().click();
  await page.getByRole("dialog").getByLabel("Domain").fill("mail.tracking-co.example");
  await page.getByRole("dialog").getByRole("button", { name: "Add domain" }).click();
  await expect(page.getByText("Added mail.tracking-co.example")).toBeVisible();

  const tracking = page.getByRole("form", { name: "Tracking subdomain of mail.tracking-co.example" });
  await expect(tracking.getByRole("status")).toContainText("use the platform's host");
  await tracking.getByLabel("Tracking subdomain").fill("Links");
  await tracking.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Tracking host links.mail.tracking-co.example")).toBeVisible();
  const records = page.getByRole("table").filter({ hasText: "_mailplatform.mail.tracking-co.example" });
  const cname = records.locator("tr[data-purpose=tracking]");
  await expect(cname).toContainText("CNAME");
  await expect(cname).toContainText("links.mail.tracking-co.example");
  await expect(cname).toContainText("localhost");
  await expect(cname).toContainText("Pending");
  await expect(tracking.getByRole("status")).toContainText("Not in use yet: publish the CNAME record for links.mail.tracking-co.example and verify the domain");

  const domains = await (await page.request.get("/v1/domains")).json();
  seedTrackingCheck(domains.data[0].id);
  await page.reload();
  await expect(tracking.getByLabel("Tracking subdomain")).toHaveValue("links");
  await expect(cname).toContainText("Verified");
  await expect(tracking.getByRole("status")).toHaveText("Links and the open pixel of mail from this domain use https://links.mail.tracking-co.example/.");
  await finalScreenshot(page, testInfo, "tracking-subdomain");

  await tracking.getByLabel("Tracking subdomain").fill("");
  await tracking.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Tracking host removed")).toBeVisible();
  await expect(cname).toHaveCount(0);
  expect((await (await page.request.get("/v1/domains")).json()).data[0]).toMatchObject({ tracking_subdomain: null, tracking_active: false });
});

test("a broadcast and its follow-up keep their tracking switches and UTM parameters", async ({ page }) => {
  await signUp(page, { name: "Ursula UTM", email: uniqueEmail("utm"), password: "correct horse battery", organizationName: "UTM Co" });
  await page.goto("/broadcasts");
  await page.getByRole("button", { name: "New broadcast" }).first().click();
  const create = page.getByRole("dialog", { name: "New broadcast" });
  await create.getByRole("textbox", { name: "Name", exact: true }).fill("Spring sale");
  await create.getByRole("textbox", { name: "Subject", exact: true }).fill("Our spring sale");
  await create.getByRole("button", { name: "Create draft" }).click();
  await page.waitForURL(/\/broadcasts\/[0-9a-f-]{36}$/);

  await expect(page.getByRole("switch", { name: "Track opens" })).toBeChecked();
  await page.getByRole("switch", { name: "Track clicks" }).click();
  await page.getByLabel("UTM source").fill("newsletter");
  await page.getByLabel("UTM campaign").fill("spring-sale");
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible({ timeout: 20_000 });

  await page.reload();
  await expect(page.getByRole("switch", { name: "Track clicks" })).not.toBeChecked();
  await expect(page.getByRole("switch", { name: "Track opens" })).toBeChecked();
  await expect(page.getByLabel("UTM source")).toHaveValue("newsletter");
  await expect(page.getByLabel("UTM medium")).toHaveValue("");
  const broadcastPath = page.url().replace(/.*\/broadcasts\//, "/v1/broadcasts/");
  expect(await (await page.request.get(broadcastPath)).json()).toMatchObject({
    track_opens: true,
    track_clicks: false,
    utm: { source: "newsletter", campaign: "spring-sale" },
  });

  await page.getByRole("button", { name: "Add follow-up" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Add follow-up 1" });
  await dialog.getByLabel("Subject").fill("Last day of the sale");
  await dialog.getByLabel("Plain text").fill("The sale ends tonight: https://shop.example/sale");
  await dialog.getByRole("switch", { name: "Track opens" }).click();
  await dialog.getByLabel("UTM medium").fill("email");
  await dialog.getByRole("button", { name: "Add follow-up" }).click();
  await expect(dialog).toBeHidden();

  const steps = await (await page.request.get(`${broadcastPath}/steps`)).json();
  expect(steps.data[0]).toMatchObject({ track_opens: false, track_clicks: true, utm: { medium: "email" } });
  await page.getByRole("button", { name: "Edit follow-up 1" }).click();
  const edit = page.getByRole("dialog", { name: "Edit follow-up 1" });
  await expect(edit.getByRole("switch", { name: "Track opens" })).not.toBeChecked();
  await expect(edit.getByLabel("UTM medium")).toHaveValue("email");
});
