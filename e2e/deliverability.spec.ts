import { execFileSync } from "node:child_process";
import { expect, finalScreenshot, signUp, test, uniqueEmail } from "./fixtures";

test.describe.configure({ timeout: 120_000 });

/** The e2e server asks no DNS server of ours, so what a check found is written with the app's Prisma client. */
function seedDomainChecks(domainId: string) {
  const databaseUrl = `postgresql://postgres:postgres@127.0.0.1:${process.env.E2E_PG_PORT ?? "54349"}/mailplatform`;
  execFileSync("npx", ["tsx", "e2e/seed-domain-checks.ts", domainId], { env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: "utf8" });
}

test("a domain lists every record to publish with its status, copy buttons and the SPF-conflict warning", async ({ page, context }, testInfo) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signUp(page, { name: "Dora Domains", email: uniqueEmail("domains"), password: "correct horse battery", organizationName: "Domain Co" });
  await page.goto("/settings");
  await page
    .getByRole("tab", { name: /Domains|Sending/ })
    .first()
    .click();
  await page.getByRole("button", { name: "Add domain" }).first().click();
  await page.getByRole("dialog").getByLabel("Domain").fill("news.domain-co.example");
  await page.getByRole("dialog").getByRole("button", { name: "Add domain" }).click();
  await expect(page.getByText("Added news.domain-co.example")).toBeVisible();

  const table = page.getByRole("table").filter({ hasText: "_mailplatform.news.domain-co.example" });
  await expect(table.getByRole("row")).toHaveCount(6);
  for (const name of ["_mailplatform.news.domain-co.example", "mp1._domainkey.news.domain-co.example", "_dmarc.news.domain-co.example"])
    await expect(table.getByText(name, { exact: true })).toBeVisible();
  await expect(table.getByText("bounces.news.domain-co.example", { exact: true })).toHaveCount(2);
  await expect(table.locator("tr[data-purpose=return_path]")).toContainText("MX");
  await expect(table.locator("tr[data-purpose=return_path]")).toContainText("priority 10");
  await expect(table.getByText("Pending")).toHaveCount(5);

  // Copy a value as the domain owner would, to paste it at their DNS provider.
  await table
    .locator("tr[data-purpose=dmarc]")
    .getByRole("button", { name: /Copy dmarc record value/ })
    .click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^v=DMARC1; p=none;/);

  const domains = await (await page.request.get("/v1/domains")).json();
  seedDomainChecks(domains.data[0].id);
  await page.reload();
  const checked = page.getByRole("table").filter({ hasText: "_mailplatform.news.domain-co.example" });
  await expect(checked.locator("tr[data-purpose=ownership]")).toContainText("Verified");
  await expect(checked.locator("tr[data-purpose=dkim]")).toContainText("Verified");
  await expect(checked.locator("tr[data-purpose=return_path]")).toContainText("Pending");
  await expect(checked.locator("tr[data-purpose=return_path]")).toContainText("no MX record found");
  await expect(checked.locator("tr[data-purpose=return_path_spf]")).toContainText("Mismatch");
  await expect(checked.locator("tr[data-purpose=return_path_spf]")).toContainText("v=spf1 include:other-provider.example -all");
  await expect(page.getByRole("alert").filter({ hasText: "Conflicting SPF record" })).toContainText("does not authorize our relay");
  await expect(page.getByRole("button", { name: "Check the records of news.domain-co.example" })).toBeVisible();
  await finalScreenshot(page, testInfo, "domain-records");
});

test("the suppression list: add, search, filter, import a CSV and remove", async ({ page }, testInfo) => {
  await signUp(page, { name: "Sue Suppress", email: uniqueEmail("suppressions"), password: "correct horse battery", organizationName: "Suppress Co" });
  await page.goto("/suppressions");
  await expect(page.getByRole("heading", { name: "Nothing is suppressed" })).toBeVisible();

  await page.getByRole("button", { name: "Add addresses" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Suppress addresses" });
  await dialog.getByLabel("Addresses").fill("first@example.net\nsecond@example.net, First@Example.net");
  await dialog.getByRole("button", { name: "Suppress" }).click();
  await expect(page.getByText("Suppressed 2 of 2 addresses")).toBeVisible();
  await expect(page.getByRole("cell", { name: "first@example.net", exact: true })).toBeVisible();
  await expect(page.getByRole("cell", { name: "second@example.net", exact: true })).toBeVisible();

  await page.getByLabel("CSV file of addresses to suppress").setInputFiles({
    name: "bounced.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("Name,Email\nThird,third@example.net\nFirst,first@example.net\nBroken,not-an-address\n"),
  });
  await expect(page.getByText("1 of 2 addresses newly suppressed.")).toBeVisible();
  await expect(page.getByRole("cell", { name: "third@example.net", exact: true })).toBeVisible();
  await expect(page.getByRole("table").getByRole("row")).toHaveCount(4);

  await page.getByLabel("Search suppressed addresses").fill("seco");
  await expect(page.getByRole("table").getByRole("row")).toHaveCount(2);
  await expect(page.getByRole("cell", { name: "second@example.net", exact: true })).toBeVisible();
  await page.getByLabel("Search suppressed addresses").fill("");
  await page.getByLabel("Reason").selectOption("hard_bounce");
  await expect(page.getByRole("heading", { name: "No suppressed address matches" })).toBeVisible();
  await page.getByLabel("Reason").selectOption("manual");
  await expect(page.getByRole("table").getByRole("row")).toHaveCount(4);

  await page.getByRole("button", { name: "Actions for second@example.net" }).click();
  await page.getByRole("menuitem", { name: "Remove" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Remove suppression" }).click();
  await expect(page.getByText("second@example.net can receive mail again")).toBeVisible();
  await expect(page.getByRole("cell", { name: "second@example.net", exact: true })).toHaveCount(0);
  const list = await (await page.request.get("/v1/suppressions")).json();
  expect(list.data.map((s: { email: string }) => s.email).sort()).toEqual(["first@example.net", "third@example.net"]);
  await finalScreenshot(page, testInfo, "suppressions");
});
