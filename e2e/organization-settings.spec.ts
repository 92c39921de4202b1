import { expect, finalScreenshot, fromDashboard, invitationPath, newestMailTo, OVERVIEW_URL, signUp, test, uniqueEmail } from "./fixtures";

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
  await expect(page.getByText("A pixel records opens and links go through signed redirects.")).toBeVisible();
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

test("a member sees the organization settings read-only", async ({ page, freshPage }, testInfo) => {
  test.setTimeout(120_000);
  await signUp(page, { name: "Odin Owner", email: uniqueEmail("org-owner"), password: "password-123", organizationName: "Read Only Inc" });
  const email = uniqueEmail("org-member");
  expect((await page.request.post("/v1/invitations", { data: { email, role: "member" }, headers: fromDashboard(page) })).status()).toBe(201);
  const member = await freshPage();
  await member.goto(invitationPath(await newestMailTo(email)));
  await member.getByRole("link", { name: "Create account" }).click();
  await member.waitForURL(/\/sign-up\?invitation=/);
  await signUp(member, { name: "Mo Member", email, password: "password-123" }, { path: member.url(), landOn: /\/invitations\// });
  await member.getByRole("button", { name: "Accept invitation" }).click();
  await member.waitForURL(OVERVIEW_URL);

  await member.goto("/settings");
  await expect(member.getByText("Only owners and admins can change these settings")).toBeVisible();
  await expect(member.getByLabel("Name", { exact: true })).toHaveValue("Read Only Inc");
  await expect(member.getByLabel("Name", { exact: true })).toBeDisabled();
  await expect(member.getByRole("button", { name: "Save name" })).toHaveCount(0);
  await expect(member.getByRole("switch", { name: "Open and click tracking" })).toBeDisabled();
  await finalScreenshot(member, testInfo, "organization-settings-member");
});

test("an owner creates a second organization from the switcher, whose form loads on first use, and lands in it", async ({ page }, testInfo) => {
  await signUp(page, { name: "Sam Switcher", email: uniqueEmail("switch"), password: "password-123", organizationName: "First Shop" });
  await page.getByRole("button", { name: /Organization: First Shop/ }).click();
  await page.getByRole("menuitem", { name: "Create organization" }).click();
  const dialog = page.getByRole("dialog", { name: "Create organization" });
  await dialog.getByRole("button", { name: "Create organization" }).click();
  await expect(dialog.getByText("Required")).toBeVisible();
  await dialog.getByLabel("Organization name").fill("Second Shop");
  await dialog.getByRole("button", { name: "Create organization" }).click();
  await expect(page.getByText("Created Second Shop")).toBeVisible();
  await expect(page.getByRole("button", { name: /Organization: Second Shop/ })).toBeVisible();
  await finalScreenshot(page, testInfo, "organization-create");
});
