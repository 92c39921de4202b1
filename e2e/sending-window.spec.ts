import { expect, finalScreenshot, signUp, test, uniqueEmail } from "./fixtures";

test.describe.configure({ timeout: 120_000 });

test("time zones and a sending window: the organization's in Settings, a contact's in its dialog, a Mon–Fri window and a business-day follow-up on a broadcast", async ({
  page,
}, testInfo) => {
  await signUp(page, { name: "Wanda Window", email: uniqueEmail("window"), password: "password-123", organizationName: "Window Co" });

  // Settings → Organization: the organization's time zone, UTC until set.
  await page.goto("/settings");
  const orgZone = page.getByLabel("Organization time zone");
  await expect(orgZone).toHaveValue("UTC");
  await orgZone.selectOption("Europe/Berlin");
  await page.getByRole("button", { name: "Save time zone" }).click();
  await expect(page.getByText("Time zone saved")).toBeVisible();

  // A contact in Tokyo.
  const contactEmail = uniqueEmail("tokyo");
  await page.goto("/contacts");
  await page.getByRole("button", { name: "Add contact" }).first().click();
  const add = page.getByRole("dialog", { name: "Add contact" });
  await add.getByLabel("Email").fill(contactEmail);
  await expect(add.getByLabel("Time zone")).toHaveValue("");
  await add.getByLabel("Time zone").selectOption("Asia/Tokyo");
  await add.getByRole("button", { name: "Add contact" }).click();
  await expect(page.getByText(`Added ${contactEmail}`)).toBeVisible();
  await page.getByRole("button", { name: `Actions for ${contactEmail}` }).click();
  await page.getByRole("menuitem", { name: "Edit" }).click();
  await expect(page.getByRole("dialog", { name: "Edit contact" }).getByLabel("Time zone")).toHaveValue("Asia/Tokyo");
  await page.keyboard.press("Escape");

  // A broadcast: office hours in each recipient's zone, no company-wide stop, a follow-up two business days later.
  await page.goto("/broadcasts");
  await page.getByRole("button", { name: "New broadcast" }).first().click();
  const create = page.getByRole("dialog", { name: "New broadcast" });
  await create.getByRole("textbox", { name: "Name", exact: true }).fill("Outbound");
  await create.getByRole("textbox", { name: "Subject", exact: true }).fill("A quick idea");
  await create.getByRole("button", { name: "Create draft" }).click();
  await page.waitForURL(/\/broadcasts\/[0-9a-f-]{36}$/);

  const windowSwitch = page.getByRole("switch", { name: "Send only within a window" });
  await expect(windowSwitch).toHaveAttribute("aria-checked", "false");
  await windowSwitch.click();
  await expect(page.getByLabel("Fri")).toBeChecked();
  await expect(page.getByLabel("Sat")).not.toBeChecked();
  await page.getByLabel("Fri").click();
  await page.getByLabel("From", { exact: true }).fill("08:30");
  // Closing before it opens is refused on the field, before anything is saved.
  await page.getByLabel("Until", { exact: true }).fill("08:00");
  await page.getByRole("button", { name: "Save changes" }).first().click();
  await expect(page.getByText("Must be after start")).toBeVisible();
  await page.getByLabel("Until", { exact: true }).fill("17:30");
  await expect(page.getByLabel("Time zone", { exact: true })).toHaveValue("contact");
  await page.getByRole("switch", { name: "Stop for the whole company on a reply" }).click();
  await page.getByRole("button", { name: "Save changes" }).first().click();
  await expect(page.getByRole("status").filter({ hasText: /^Saved$/ })).toBeVisible({ timeout: 20_000 });

  await page.getByRole("button", { name: "Add follow-up" }).first().click();
  const step = page.getByRole("dialog");
  await step.getByLabel("Wait").fill("2");
  await step.getByLabel("Unit").selectOption("business_days");
  await step.getByLabel("Plain text").fill("Bumping this up.");
  await step.getByRole("button", { name: "Add follow-up" }).click();
  await expect(step).toBeHidden();
  await expect(page.getByText("Wait 2 business days").first()).toBeVisible();

  await page.reload();
  await expect(page.getByRole("switch", { name: "Send only within a window" })).toHaveAttribute("aria-checked", "true");
  await expect(page.getByLabel("Fri")).not.toBeChecked();
  await expect(page.getByLabel("Mon")).toBeChecked();
  await expect(page.getByLabel("From", { exact: true })).toHaveValue("08:30");
  await expect(page.getByLabel("Until", { exact: true })).toHaveValue("17:30");
  await expect(page.getByRole("switch", { name: "Stop for the whole company on a reply" })).toHaveAttribute("aria-checked", "false");

  const id = page.url().split("/").pop();
  const saved = await (await page.request.get(`/v1/broadcasts/${id}`)).json();
  expect(saved).toMatchObject({
    sending_window: { days: ["mon", "tue", "wed", "thu"], start: "08:30", end: "17:30", timezone: "contact" },
    stop_on_company_reply: false,
  });
  const steps = await (await page.request.get(`/v1/broadcasts/${id}/steps`)).json();
  expect(steps.data).toMatchObject([{ delay_minutes: 0, delay_business_days: 2 }]);
  expect(await (await page.request.get("/v1/organization")).json()).toMatchObject({ timezone: "Europe/Berlin" });
  await finalScreenshot(page, testInfo, "sending-window");
});
