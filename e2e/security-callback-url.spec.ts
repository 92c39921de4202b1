import { expect, signUp, test, uniqueEmail } from "./fixtures";

// Issue 8, item 6: /sign-in?callbackUrl=%2F%09%2Fevil.test took a signed-in user to evil.test
// (Chromium drops the TAB and reads "//evil.test"), and %0A answered 500.
const attacks = [
  "%2F%09%2Fevil.test",
  "%2F%0A%2Fevil.test",
  "%2F%0D%2Fevil.test",
  "%2F%2Fevil.test",
  "%2F%5Cevil.test",
  "https%3A%2F%2Fevil.test",
  "javascript%3Aalert(1)",
];

test("callbackUrl never leaves the site, signed in or signing in, and never answers 500", async ({ page, freshPage }) => {
  const user = { name: "Cal Back", email: uniqueEmail("callback"), password: "password-123" };
  await signUp(page, user);
  const origin = new URL(page.url()).origin;
  for (const attack of attacks) {
    const response = await page.goto(`/sign-in?callbackUrl=${attack}`);
    expect(response?.status(), attack).toBeLessThan(500);
    await page.waitForLoadState("networkidle");
    expect(new URL(page.url()).origin, attack).toBe(origin);
  }

  const guest = await freshPage();
  for (const attack of attacks.slice(0, 3)) {
    const response = await guest.goto(`/sign-in?callbackUrl=${attack}`);
    expect(response?.status(), attack).toBeLessThan(500);
    await guest.getByLabel("Email").fill(user.email);
    await guest.getByLabel("Password").fill(user.password);
    await guest.getByRole("button", { name: "Sign in" }).click();
    await guest.waitForURL((url) => !url.pathname.startsWith("/sign-in"));
    await guest.waitForLoadState("networkidle");
    expect(new URL(guest.url()).origin, attack).toBe(origin);
    // Off the dashboard before the session goes: a query of the overview still running (or its
    // refetch) would otherwise be answered 401, which the browser logs (a flaky CI run).
    await guest.goto("about:blank");
    await guest.context().clearCookies();
  }
});
