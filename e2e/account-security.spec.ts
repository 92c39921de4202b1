import { generate } from "otplib";
import { allowConsoleError, expect, finalScreenshot, newestMailTo, OVERVIEW_URL, signUp, test, uniqueEmail } from "./fixtures";
import type { Page } from "@playwright/test";

async function signOut(page: Page) {
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await page.waitForURL(/\/sign-in/);
}

test("a forgotten password is reset with the emailed link, once", async ({ page }, testInfo) => {
  const user = { name: "Rita Reset", email: uniqueEmail("reset"), password: "old-password-1" };
  await signUp(page, user);
  await signOut(page);

  await page.getByRole("link", { name: "Forgot password?" }).click();
  await page.waitForURL(/\/forgot-password/);
  await expect(page.getByRole("heading", { name: "Reset your password" })).toBeVisible();
  await page.getByLabel("Email").fill(user.email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Check your email" })).toBeVisible();

  const mail = await newestMailTo(user.email, 15_000, "Reset your password");
  const link = /(\/reset-password\/[A-Za-z0-9_-]{32,})/.exec(mail.text)?.[1] ?? "";
  expect(link).not.toBe("");
  await page.goto(link);
  await page.getByLabel("New password").fill("new-password-2");
  await page.getByRole("button", { name: "Save new password" }).click();
  await page.waitForURL(/\/sign-in\?notice=password-reset/);
  await expect(page.getByText("Your password was changed and every session was signed out.")).toBeVisible();
  await page.getByLabel("Password").fill("new-password-2");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(OVERVIEW_URL);

  // The link worked once.
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "This reset link does not work" })).toBeVisible();
  await finalScreenshot(page, testInfo, "reset-link-used");
});

test("two-factor sign-in: set up with the app's code, then each sign-in asks for a code or a recovery code", async ({ page }, testInfo) => {
  const user = { name: "Tom Totp", email: uniqueEmail("totp"), password: "password-123" };
  await signUp(page, user);
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Account and security" }).click();
  await page.waitForURL(/\/account/);
  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  const secret = ((await page.getByTestId("two-factor-secret").textContent()) ?? "").trim();
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  await page.getByLabel("Code from the app").fill(await generate({ secret }));
  await page.getByLabel("Your password").fill(user.password);
  await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  const dialog = page.getByRole("dialog", { name: "Save your recovery codes" });
  await expect(dialog.getByTestId("recovery-codes").locator("li")).toHaveCount(10);
  const codes = (await dialog.getByTestId("recovery-codes").locator("li").allTextContents()).map((c) => c.trim());
  expect(codes).toHaveLength(10);
  await finalScreenshot(page, testInfo, "recovery-codes");
  await dialog.getByRole("button", { name: "I have saved them" }).click();
  await expect(page.getByText("10 of 10 recovery codes left.")).toBeVisible();
  await signOut(page);

  // Password first, then the code from the app. The browser logs next-auth's 401 for the
  // "code needed" and "wrong code" answers; those are expected here.
  allowConsoleError(page, /status of 401/);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByLabel("Authentication code")).toBeVisible();
  await page.getByLabel("Authentication code").fill("000000");
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "That code is not right" })).toBeVisible();
  // A code from the next step: the one used to turn it on cannot be used twice.
  await page.getByLabel("Authentication code").fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await page.waitForURL(OVERVIEW_URL);
  await signOut(page);

  // A recovery code instead.
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByLabel("Authentication code").fill(codes[0]);
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await page.waitForURL(OVERVIEW_URL);
  await page.goto("/account");
  await expect(page.getByText("9 of 10 recovery codes left.")).toBeVisible();
  await finalScreenshot(page, testInfo, "two-factor-on");
});
