import type { Page } from "@playwright/test";
import { expect, finalScreenshot, invitationPath, newestMailTo, OVERVIEW_URL, signUp, test, uniqueEmail } from "./fixtures";

async function invite(page: Page, email: string, role: "member" | "admin") {
  await page.goto("/team");
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Role", { exact: true }).selectOption(role);
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByRole("row", { name: new RegExp(email.replace(/[.+]/g, "\\$&")) })).toBeVisible();
}

test("an owner invites a colleague who signs up from the email link, accepts and lands in the organization", async ({ page, freshPage }, testInfo) => {
  const orgName = `Northwind ${Date.now().toString(36)}`;
  await signUp(page, { name: "Olga Owner", email: uniqueEmail("owner"), password: "password-123", organizationName: orgName });
  const colleague = uniqueEmail("colleague");
  await invite(page, colleague, "admin");

  const mail = await newestMailTo(colleague);
  // Names are the inviter's free text: the Subject never carries them; the body does, cut short.
  expect(mail.subject).toBe("You have been invited to join a team");
  expect(mail.text).toContain(orgName);
  const link = invitationPath(mail);

  // The colleague opens the link in a browser that has never been signed in.
  const guest = await freshPage();
  await guest.goto(link);
  await expect(guest.getByRole("heading", { name: orgName })).toBeVisible();
  await expect(guest.getByText("Olga Owner", { exact: true })).toBeVisible();
  await expect(guest.getByText(colleague, { exact: true })).toBeVisible();
  await guest.getByRole("link", { name: "Create account" }).click();

  await expect(guest.getByRole("heading", { name: `Join ${orgName}` })).toBeVisible();
  await expect(guest.getByLabel("Work email")).toHaveValue(colleague);
  await signUp(guest, { name: "Carla Colleague", email: colleague, password: "password-456" }, { path: guest.url(), landOn: /\/invitations\// });

  await expect(guest.getByText(`You will join as an admin, signed in as ${colleague}.`)).toBeVisible();
  await guest.getByRole("button", { name: "Accept invitation" }).click();
  await guest.waitForURL(OVERVIEW_URL);
  await expect(guest.getByText(`Welcome to ${orgName}`)).toBeVisible();
  await expect(guest.getByRole("button", { name: new RegExp(`Organization: ${orgName}`) })).toBeVisible();

  await guest.goto("/team");
  await expect(guest.getByRole("row", { name: /Olga Owner/ })).toBeVisible();
  await expect(guest.getByRole("row", { name: /Carla Colleague/ })).toContainText("Admin");
  await finalScreenshot(guest, testInfo, "colleague-joined-team");

  // The link has been used: opening it again explains that instead of failing.
  await guest.goto(link);
  await expect(guest.getByRole("heading", { name: "This invitation has already been accepted" })).toBeVisible();
  await finalScreenshot(guest, testInfo, "invitation-already-accepted");
});

test("an invitation link opened by someone signed in with another address explains what to do", async ({ page, freshPage }, testInfo) => {
  await signUp(page, { name: "Ola Owner", email: uniqueEmail("owner"), password: "password-123", organizationName: "Mismatch Inc" });
  const invited = uniqueEmail("invited");
  await invite(page, invited, "member");
  const link = invitationPath(await newestMailTo(invited));

  const other = await freshPage();
  await signUp(other, { name: "Someone Else", email: uniqueEmail("else"), password: "password-789" });
  await other.goto(link);
  await expect(other.getByRole("heading", { name: "This invitation is for another address" })).toBeVisible();
  await expect(other.getByRole("button", { name: "Sign in with the invited address" })).toBeVisible();
  await expect(other.getByText(invited, { exact: true })).toBeVisible();

  const unknown = await freshPage();
  await unknown.goto(`/invitations/${"x".repeat(43)}`);
  await expect(unknown.getByRole("heading", { name: "This invitation link does not work" })).toBeVisible();
  await finalScreenshot(other, testInfo, "invitation-other-address");
  await finalScreenshot(unknown, testInfo, "invitation-unknown");
});
