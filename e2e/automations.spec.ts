import { execFileSync } from "node:child_process";
import { e2eDataDir } from "../playwright.config";
import { expect, finalScreenshot, signUp, test, uniqueEmail } from "./fixtures";

const cliEnv = () => ({
  ...process.env,
  DATA_DIR: e2eDataDir,
  EMBEDDED_PG_PORT: process.env.E2E_PG_PORT ?? "54349",
  AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret",
});

test("build signed up → welcome → wait 1 day → opened? → offer / reminder, activate it, and follow a contact through it", async ({ page }, testInfo) => {
  // A long walk (a builder of five steps, a run through them, two screens after) on a shared machine.
  test.setTimeout(180_000);
  await signUp(page, { name: "Mara Marketer", email: uniqueEmail("automations"), password: "correct horse battery", organizationName: "Flow Co" });
  const origin = new URL(page.url()).origin;
  const api = async (method: string, path: string, data?: unknown) => {
    const response = await page.request.fetch(path, { method, data, headers: { origin } });
    expect(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`).toBe(true);
    return response.json();
  };
  const organization = await api("GET", "/v1/organization");
  // A verified sending domain, as an operator vouches for one (there is no DNS here).
  execFileSync(process.execPath, ["--import", "tsx", "cli/index.ts", "domain:create", "--organization", organization.id, "--name", "flow.test", "--verified"], {
    env: cliEnv(),
  });

  await page.getByRole("link", { name: "Automations" }).click();
  await expect(page.getByRole("heading", { name: "No automations yet" })).toBeVisible();
  await page.getByRole("button", { name: "New automation" }).first().click();
  const create = page.getByRole("dialog", { name: "New automation" });
  await create.getByRole("textbox", { name: "Name" }).fill("Welcome series");
  await create.getByRole("textbox", { name: "Event" }).fill("signed_up");
  await create.getByRole("button", { name: "Create draft" }).click();
  await page.waitForURL(/\/automations\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: /Welcome series/ })).toBeVisible();
  await expect(page.getByTestId("flow-trigger")).toContainText("Event “signed_up”");

  // The sender of every step, once, in the automation's settings.
  await page.getByRole("button", { name: "Settings" }).click();
  const settings = page.getByRole("dialog", { name: "Trigger and settings" });
  await settings.getByRole("textbox", { name: "From address" }).fill("hello@flow.test");
  // A sending window is offered as a broadcast's (office hours in each contact's zone); not this time.
  await settings.getByRole("switch", { name: "Send only within a window" }).click();
  await expect(settings.getByRole("group", { name: "Days" })).toBeVisible();
  await expect(settings.getByRole("combobox", { name: "Time zone" })).toHaveValue("contact");
  await settings.getByRole("switch", { name: "Send only within a window" }).click();
  await expect(settings.getByRole("group", { name: "Days" })).toBeHidden();
  await settings.getByRole("button", { name: "Apply" }).click();

  const addAt = async (label: string | RegExp, kind: string) => {
    await page.getByRole("button", { name: label }).click();
    // The kind's label, then its hint: "Wait A number of minutes…", not "Wait for event Until…".
    await page.getByRole("menuitem", { name: new RegExp(`^${kind} [A-Z]`) }).click();
  };
  await addAt("Add the first step", "Send email");
  let step = page.getByRole("dialog", { name: "Add: send email" });
  await step.getByRole("textbox", { name: "Subject" }).fill("Welcome, {{first_name}}");
  await step.getByRole("textbox", { name: "HTML" }).fill("<p>Glad you are here.</p>");
  await step.getByRole("button", { name: "Add step" }).click();

  await addAt("Add a step at the end", "Wait");
  step = page.getByRole("dialog", { name: "Add: wait" });
  await step.getByRole("spinbutton", { name: "Wait for" }).fill("1");
  await step.getByRole("combobox", { name: "Unit" }).selectOption("days");
  await step.getByRole("button", { name: "Add step" }).click();

  await addAt("Add a step at the end", "Condition");
  step = page.getByRole("dialog", { name: "Add: condition" });
  await step.getByRole("combobox", { name: "Yes when the contact…" }).selectOption("opened");
  await step.getByRole("button", { name: "Add step" }).click();

  await addAt("Add the first step in the yes branch", "Send email");
  step = page.getByRole("dialog", { name: "Add: send email" });
  await step.getByRole("textbox", { name: "Subject" }).fill("An offer for you");
  await step.getByRole("textbox", { name: "HTML" }).fill("<p>20% off this week.</p>");
  await step.getByRole("button", { name: "Add step" }).click();

  await addAt("Add the first step in the no branch", "Send email");
  step = page.getByRole("dialog", { name: "Add: send email" });
  await step.getByRole("textbox", { name: "Subject" }).fill("Did you see our welcome?");
  await step.getByRole("textbox", { name: "HTML" }).fill("<p>A reminder.</p>");
  await step.getByRole("button", { name: "Add step" }).click();

  const flow = page.getByLabel("Automation flow");
  await expect(flow.getByTestId("flow-step")).toHaveCount(5);
  await expect(flow).toContainText("Wait 1 day");
  await expect(flow).toContainText("Opened an email of this automation?");
  await page.getByRole("button", { name: "Save and activate" }).click();
  await expect(page.getByText("Automation active")).toBeVisible();
  await expect(page.getByRole("button", { name: "Pause", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Add the first step" })).toBeHidden();

  // A contact signs up: the application sends the event.
  const email = uniqueEmail("newcomer");
  await api("POST", "/v1/events", { name: "signed_up", email });
  const contacts = await api("GET", `/v1/contacts?search=${encodeURIComponent(email)}&limit=1`);
  const contactId: string = contacts.contacts[0].id;
  const firstStep = flow.getByTestId("flow-step").first();
  await expect(firstStep).toContainText("1 passed", { timeout: 30_000 });
  await expect(flow.getByTestId("flow-step").nth(1)).toContainText("1 waiting");

  // A day later (moved by hand: nobody waits a day in a test), the contact has not opened it.
  execFileSync(process.execPath, ["--import", "tsx", "e2e/seed-automation-time.ts", contactId], { env: cliEnv() });
  await expect(flow.getByTestId("flow-step").nth(2)).toContainText("1 passed", { timeout: 30_000 });
  await expect(flow.getByTestId("flow-step").nth(4)).toContainText("1 passed");

  await page.getByRole("tab", { name: "Runs" }).click();
  await page.getByRole("searchbox", { name: "Contact email" }).fill(email);
  await page.getByRole("button", { name: "Find" }).click();
  const run = page.getByRole("list", { name: `Steps of ${email}` });
  await expect(run).toContainText("waited");
  await expect(run).toContainText("no");

  // The contact page tells the same story on its timeline.
  await page.getByRole("link", { name: email }).click();
  await page.waitForURL(new RegExp(`/contacts/${contactId}$`));
  const timeline = page.getByRole("list", { name: "Timeline" });
  await expect(timeline).toContainText("Automation: entered");
  await expect(timeline).toContainText("Welcome series");
  await expect(timeline).toContainText("Automation: wait");
  await expect(timeline).toContainText("outcome: no");
  await expect(timeline).toContainText("Did you see our welcome?");
  await expect(timeline).toContainText("Automation: completed");
  await finalScreenshot(page, testInfo, "automation-contact");
});
