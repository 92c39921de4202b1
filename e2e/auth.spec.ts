import { allowConsoleError, expect, finalScreenshot, newestMailTo, OVERVIEW_URL, signUp, test, uniqueEmail } from "./fixtures";

test("sign up, sign out, and sign in again back to the page asked for", async ({ page, context }, testInfo) => {
  const user = { name: "Sam Sender", email: uniqueEmail("signup"), password: "correct-horse-1", organizationName: "Sam's Shop" };
  await signUp(page, user);
  await expect(page).toHaveURL(OVERVIEW_URL);
  await expect(page.getByRole("button", { name: /Organization: Sam's Shop/ })).toBeVisible();
  // A copy of the session cookie, as malware or a shared computer would keep it.
  const copied = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  expect((await page.request.fetch("/api/session", { headers: { cookie: copied } })).status()).toBe(200);

  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await page.waitForURL(/\/sign-in/);
  // Signing out ended the session on the server: the copy no longer works.
  expect((await page.request.fetch("/api/session", { headers: { cookie: copied } })).status()).toBe(401);

  // A signed-out visit to a dashboard page comes back to it after signing in.
  await page.goto("/team");
  await page.waitForURL(/\/sign-in\?callbackUrl=%2Fteam/);

  // The browser logs the 401 of the rejected password; that one is expected here.
  allowConsoleError(page, /status of 401/);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill("wrong-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "The email or password is not right." })).toBeVisible();

  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/team$/);
  await expect(page.getByRole("heading", { name: "Team", level: 1 })).toBeVisible();
  await expect(page.getByRole("row", { name: /Sam Sender/ })).toBeVisible();
  await finalScreenshot(page, testInfo, "signed-in-team");
});

test("sign-up shows field errors, and a taken address gets the same answer as a new one", async ({ page }, testInfo) => {
  const email = uniqueEmail("taken");
  await signUp(page, { name: "First Owner", email, password: "password-123" });
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await page.waitForURL(/\/sign-in/);

  await page.goto("/sign-up");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByLabel("Full name")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Must be at least 8 characters")).toBeVisible();

  // The same address again: no "already registered" (that would tell anyone who has an account);
  // the owner of the address gets a mail saying someone tried.
  allowConsoleError(page, /status of 401/);
  await page.getByLabel("Full name").fill("Second Person");
  await page.getByLabel("Work email").fill(email);
  await page.getByLabel("Password").fill("password-456");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Check your email" })).toBeVisible();
  const told = await newestMailTo(email, 15_000, "Someone tried to sign up with your address");
  expect(told.text).toContain("/reset-password/");
  await finalScreenshot(page, testInfo, "sign-up-taken-address");
});
