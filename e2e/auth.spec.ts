import { allowConsoleError, expect, finalScreenshot, OVERVIEW_URL, signUp, test, uniqueEmail } from "./fixtures";

test("sign up, sign out, and sign in again back to the page asked for", async ({ page }, testInfo) => {
  const user = { name: "Sam Sender", email: uniqueEmail("signup"), password: "correct-horse-1", organizationName: "Sam's Shop" };
  await signUp(page, user);
  await expect(page).toHaveURL(OVERVIEW_URL);
  await expect(page.getByRole("button", { name: /Organization: Sam's Shop/ })).toBeVisible();

  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await page.waitForURL(/\/sign-in/);

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

test("sign-up shows field errors from the client and from the server", async ({ page }, testInfo) => {
  const email = uniqueEmail("taken");
  await signUp(page, { name: "First Owner", email, password: "password-123" });
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await page.waitForURL(/\/sign-in/);

  await page.goto("/sign-up");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByLabel("Full name")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Must be at least 8 characters")).toBeVisible();

  // The same address again: the server's 409 lands on the email field.
  allowConsoleError(page, /status of 409/);
  await page.getByLabel("Full name").fill("Second Person");
  await page.getByLabel("Work email").fill(email);
  await page.getByLabel("Password").fill("password-456");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByLabel("Work email")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Is already registered")).toBeVisible();
  await finalScreenshot(page, testInfo, "sign-up-errors");
});
