import type { Page } from "@playwright/test";
import { expect, finalScreenshot, fromDashboard, invitationPath, newestMailTo, OVERVIEW_URL, signUp, test, uniqueEmail } from "./fixtures";

/** The owner invites through the API with the dashboard session; the invitee joins through the UI. */
async function join(owner: Page, guest: Page, role: "member" | "admin", name: string) {
  const email = uniqueEmail(role);
  const response = await owner.request.post("/v1/invitations", { data: { email, role }, headers: fromDashboard(owner) });
  expect(response.status()).toBe(201);
  await guest.goto(invitationPath(await newestMailTo(email)));
  await guest.getByRole("link", { name: "Create account" }).click();
  await guest.waitForURL(/\/sign-up\?invitation=/);
  await signUp(guest, { name, email, password: "password-123" }, { path: guest.url(), landOn: /\/invitations\// });
  await guest.getByRole("button", { name: "Accept invitation" }).click();
  await guest.waitForURL(OVERVIEW_URL);
}

test("members do not get the invite form; admins do", async ({ page, freshPage }, testInfo) => {
  // Three people sign up through the browser.
  test.setTimeout(150_000);
  await signUp(page, { name: "Otto Owner", email: uniqueEmail("owner"), password: "password-123", organizationName: "Roles Ltd" });

  const member = await freshPage();
  await join(page, member, "member", "Mia Member");
  await member.goto("/team");
  await expect(member.getByRole("heading", { name: "Team", level: 1 })).toBeVisible();
  await expect(member.getByRole("row", { name: /Otto Owner/ })).toBeVisible();
  await expect(member.getByText("Only owners and admins can invite people")).toBeVisible();
  await expect(member.getByRole("button", { name: "Send invitation" })).toHaveCount(0);
  await expect(member.getByRole("heading", { name: "Pending invitations", exact: true })).toHaveCount(0);
  await finalScreenshot(member, testInfo, "member-team-page");

  const admin = await freshPage();
  await join(page, admin, "admin", "Ada Admin");
  await admin.goto("/team");
  await expect(admin.getByRole("button", { name: "Send invitation" })).toBeVisible();
  await expect(admin.getByRole("heading", { name: "Pending invitations", exact: true })).toBeVisible();
  await expect(admin.getByRole("row", { name: /Mia Member/ })).toBeVisible();
  await finalScreenshot(admin, testInfo, "admin-team-page");

  // The owner sees both newcomers with their roles.
  await page.goto("/team");
  await expect(page.getByRole("combobox", { name: "Role of Ada Admin" })).toHaveValue("admin");
  await expect(page.getByRole("combobox", { name: "Role of Mia Member" })).toHaveValue("member");

  // The owner promotes the member, removes the admin, and resends then cancels a pending invitation.
  await page.getByRole("combobox", { name: "Role of Mia Member" }).selectOption("admin");
  await expect(page.getByText("Mia Member is now an admin")).toBeVisible();
  await page.getByRole("button", { name: "Actions for Ada Admin" }).click();
  await page.getByRole("menuitem", { name: "Remove from organization" }).click();
  const confirmRemove = page.getByRole("alertdialog", { name: "Remove Ada Admin?" });
  await confirmRemove.getByRole("button", { name: "Remove member" }).click();
  await expect(page.getByRole("row", { name: /Ada Admin/ })).toHaveCount(0);

  const pending = uniqueEmail("pending");
  await page.getByLabel("Email address").fill(pending);
  await page.getByRole("button", { name: "Send invitation" }).click();
  await page.getByRole("button", { name: `Resend invitation to ${pending}` }).click();
  await expect(page.getByText(`Invitation sent again to ${pending}`)).toBeVisible();
  await page.getByRole("button", { name: `Cancel invitation to ${pending}` }).click();
  await page.getByRole("alertdialog", { name: "Cancel this invitation?" }).getByRole("button", { name: "Cancel invitation" }).click();
  await expect(page.getByText("No pending invitations")).toBeVisible();
  await finalScreenshot(page, testInfo, "owner-team-page");
});
