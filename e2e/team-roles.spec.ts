import type { Page } from "@playwright/test";
import { expect, finalScreenshot, invitationPath, newestMailTo, signUp, test, uniqueEmail } from "./fixtures";

/** The owner invites through the API with the dashboard session; the invitee joins through the UI. */
async function join(owner: Page, guest: Page, role: "member" | "admin", name: string) {
  const email = uniqueEmail(role);
  const response = await owner.request.post("/v1/invitations", { data: { email, role } });
  expect(response.status()).toBe(201);
  await guest.goto(invitationPath(await newestMailTo(email)));
  await guest.getByRole("link", { name: "Create account" }).click();
  await signUp(guest, { name, email, password: "password-123" }, { path: guest.url(), landOn: /\/invitations\// });
  await guest.getByRole("button", { name: "Accept invitation" }).click();
  await guest.waitForURL(/\/broadcasts/);
}

test("members do not get the invite form; admins do", async ({ page, freshPage }, testInfo) => {
  await signUp(page, { name: "Otto Owner", email: uniqueEmail("owner"), password: "password-123", organizationName: "Roles Ltd" });

  const member = await freshPage();
  await join(page, member, "member", "Mia Member");
  await member.goto("/team");
  await expect(member.getByRole("heading", { name: "Team", level: 1 })).toBeVisible();
  await expect(member.getByRole("row", { name: /Otto Owner/ })).toBeVisible();
  await expect(member.getByText("Only owners and admins can invite people")).toBeVisible();
  await expect(member.getByRole("button", { name: "Send invitation" })).toHaveCount(0);
  await expect(member.getByText("Pending invitations")).toHaveCount(0);
  await finalScreenshot(member, testInfo, "member-team-page");

  const admin = await freshPage();
  await join(page, admin, "admin", "Ada Admin");
  await admin.goto("/team");
  await expect(admin.getByRole("button", { name: "Send invitation" })).toBeVisible();
  await expect(admin.getByText("Pending invitations")).toBeVisible();
  await expect(admin.getByRole("row", { name: /Mia Member/ })).toBeVisible();
  await finalScreenshot(admin, testInfo, "admin-team-page");

  // The owner sees both newcomers with their roles.
  await page.goto("/team");
  await expect(page.getByRole("combobox", { name: "Role of Ada Admin" })).toHaveValue("admin");
  await expect(page.getByRole("combobox", { name: "Role of Mia Member" })).toHaveValue("member");
  await finalScreenshot(page, testInfo, "owner-team-page");
});
