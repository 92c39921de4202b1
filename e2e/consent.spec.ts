import { startSmtpSink, type ReceivedMail, type SmtpSink } from "../lib/testing/smtp-sink";
import { api, expect, finalScreenshot, signUp, test, uniqueEmail } from "./fixtures";

let sink: SmtpSink;

/** The first message to `to` whose subject is `subject`, once the sink has it. */
async function mailTo(to: string, subject: string): Promise<ReceivedMail> {
  await expect.poll(() => sink.messages.some((m) => m.envelopeTo.includes(to) && m.parsed.subject === subject), { timeout: 60_000 }).toBe(true);
  return sink.messages.find((m) => m.envelopeTo.includes(to) && m.parsed.subject === subject)!;
}

const pathOf = (mail: ReceivedMail, pattern: RegExp) => {
  const match = pattern.exec(mail.parsed.text ?? "");
  if (!match) throw new Error(`No ${pattern} in the message to ${mail.envelopeTo.join(", ")}`);
  return new URL(match[0]).pathname;
};

test.beforeAll(async () => {
  sink = await startSmtpSink();
});

test.afterAll(async () => {
  await sink?.close();
});

test.describe.configure({ timeout: 240_000 });

// Issue 27's walk: build a form, open its hosted page, subscribe, confirm from the sink's email, see
// the contact with its consent on the contact page; open the preference page from a received email
// and switch a topic off.
test("consent: settings, topics, a form with double opt-in confirmed from its email, the contact's consent, and the preference page of a received email", async ({
  page,
  freshPage,
}, testInfo) => {
  await signUp(page, { name: "Nora Consent", email: uniqueEmail("consent"), password: "correct horse battery", organizationName: "Consent Co" });

  // Settings: the name subscribers see on every public page, and a typed property the form will ask.
  await page.goto("/settings?tab=organization");
  await page.getByLabel("Name", { exact: true }).fill("Northwind Roasters");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByText("Organization renamed")).toBeVisible();
  await page.goto("/settings?tab=properties");
  await page.getByRole("button", { name: "Add property" }).first().click();
  const property = page.getByRole("dialog", { name: "Add a property" });
  await property.getByLabel("Key").fill("roast");
  await property.getByLabel("Label").fill("Favourite roast");
  await property.getByRole("button", { name: "Add property" }).click();
  await expect(page.getByRole("cell", { name: "Favourite roast", exact: true })).toBeVisible();

  // The inbox the confirmations and the newsletter go through: its SMTP server is the sink, its address proven.
  const tag = Date.now().toString(36);
  const sender = `news-${tag}@roasters.test`;
  const inbox = await api<{ id: string }>(page, "POST", "/v1/inboxes", {
    name: "Roastery news",
    from_email: sender,
    daily_limit: 100,
    smtp: { host: sink.host, port: sink.port, secure: false, username: "news", password: "secret" },
  });
  await api(page, "POST", `/v1/inboxes/${inbox.id}/send-confirmation`);
  const proof = await mailTo(sender, "Confirm your sender address");
  const reader = await freshPage();
  await reader.goto(pathOf(proof, /https?:\/\/\S+\/confirm-sender\/[A-Za-z0-9_-]+/));
  await reader.getByRole("button", { name: `Confirm ${sender}` }).click();
  await expect(reader.getByRole("status")).toContainText("is confirmed");

  // Topics: one people join, one everyone gets until they leave it.
  await page.goto("/topics");
  await page.getByRole("button", { name: "Create topic" }).first().click();
  let dialog = page.getByRole("dialog", { name: "Create topic" });
  await dialog.getByLabel("Name").fill("Roast of the month");
  await dialog.getByRole("radio", { name: /Only those who join it/ }).click();
  await dialog.getByRole("button", { name: "Create topic" }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole("button", { name: "Create topic" }).first().click();
  dialog = page.getByRole("dialog", { name: "Create topic" });
  await dialog.getByLabel("Name").fill("Offers");
  await dialog.getByRole("button", { name: "Create topic" }).click();
  await expect(dialog).toBeHidden();
  const topicList = page.getByRole("list", { name: "Topics" });
  await expect(topicList.getByText("Roast of the month")).toBeVisible();
  await expect(topicList.getByText("Offers")).toBeVisible();

  // A form: email, first name and the typed property; confirmations through the inbox; joins the monthly roast.
  await page.goto("/forms");
  await page.getByRole("link", { name: "Create form" }).first().click();
  await page.waitForURL(/\/forms\/new$/);
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("Coffee letter");
  await page.getByLabel("Add a field").selectOption({ label: "Favourite roast" });
  await expect(page.getByRole("list", { name: "Fields of the form" }).getByText("Favourite roast")).toBeVisible();
  await page.getByLabel("Send through inbox").selectOption({ label: `Roastery news <${sender}>` });
  await page.getByLabel("Subscribe to topics").click();
  await page.getByRole("option", { name: "Roast of the month" }).click();
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Create form" }).click();
  await page.waitForURL(/\/forms\/[0-9a-f-]{36}$/);
  const hosted = await page.getByRole("link", { name: "Open hosted page" }).getAttribute("href");
  expect(hosted).toMatch(/\/f\/[0-9a-f-]{36}$/);

  // A visitor signs up on the hosted page.
  const subscriber = `ada-${tag}@example.test`;
  const visitor = await freshPage();
  await visitor.goto(new URL(hosted!).pathname);
  await expect(visitor.getByText("Northwind Roasters")).toBeVisible();
  await expect(visitor.getByRole("heading", { name: "Coffee letter" })).toBeVisible();
  await visitor.getByLabel("Email").fill(subscriber);
  await visitor.getByLabel("First name").fill("Ada");
  await visitor.getByLabel("Favourite roast").fill("Yirgacheffe");
  await visitor.getByRole("button", { name: "Subscribe" }).click();
  await expect(visitor.getByRole("status")).toContainText("Check your inbox");

  // Not subscribed until the link in the confirmation email is followed and its button pressed.
  const contacts = await api<{ contacts: { id: string; email: string; subscribed: boolean }[] }>(
    page,
    "GET",
    `/v1/contacts?search=${encodeURIComponent(subscriber)}`,
  );
  expect(contacts.contacts).toMatchObject([{ email: subscriber, subscribed: false }]);
  const contactId = contacts.contacts[0].id;
  const confirmation = await mailTo(subscriber, "Please confirm your subscription");
  await visitor.goto(pathOf(confirmation, /https?:\/\/\S+\/f\/confirm\/[A-Za-z0-9_-]+/));
  await expect(visitor.getByText(`Subscribe ${subscriber} to emails from Northwind Roasters?`)).toBeVisible();
  await visitor.getByRole("button", { name: "Confirm subscription" }).click();
  await expect(visitor.getByText("You are subscribed to emails from Northwind Roasters. Thank you!")).toBeVisible();

  // The marketer finds the contact, its consent and its topics on its page.
  await page.goto("/contacts");
  await page.getByRole("link", { name: subscriber }).click();
  await page.waitForURL(new RegExp(`/contacts/${contactId}$`));
  const consent = page.getByRole("list", { name: "Consent records" });
  await expect(consent.getByText("Signup form")).toBeVisible();
  await expect(page.getByRole("switch", { name: "Receives Roast of the month" })).toBeChecked();
  await expect(page.getByRole("switch", { name: "Receives Offers" })).toBeChecked();
  // Its timeline tells the submission and the confirmation, each once.
  const timeline = page.getByRole("list", { name: "Timeline" });
  const told = (text: RegExp) => timeline.getByRole("listitem").filter({ hasText: text });
  await expect(told(/^Submitted the form Coffee letter/)).toHaveCount(1);
  await expect(told(/^Subscribed through a form/)).toHaveCount(1);
  await expect(told(/^Subscribed to Roast of the month/)).toHaveCount(1);

  // A broadcast of the Offers topic reaches the subscriber; its preference link switches Offers off.
  const segment = await api<{ id: string }>(page, "POST", "/v1/segments", { name: `Subscribers ${tag}` });
  await api(page, "POST", `/v1/segments/${segment.id}/contacts`, { contact_ids: [contactId] });
  const topics = await api<{ id: string; name: string }[] | { data: { id: string; name: string }[] }>(page, "GET", "/v1/topics");
  const offers = (Array.isArray(topics) ? topics : topics.data).find((t) => t.name === "Offers")!;
  const broadcast = await api<{ id: string }>(page, "POST", "/v1/broadcasts", {
    name: "Autumn offers",
    subject: "Autumn offers",
    inbox_id: inbox.id,
    segment_id: segment.id,
    topic_id: offers.id,
    sending_speed: "instant",
    html_content: "<html><body><p>Hello {{first_name|there}}, two bags for one this week.</p></body></html>",
  });
  await api(page, "POST", `/v1/broadcasts/${broadcast.id}/send`, {});
  const newsletter = await mailTo(subscriber, "Autumn offers");
  await visitor.goto(pathOf(newsletter, /https?:\/\/\S+\/p\/[A-Za-z0-9_-]+/));
  await expect(visitor.getByRole("heading", { name: "Email preferences" })).toBeVisible();
  await expect(visitor.getByText("Northwind Roasters")).toBeVisible();
  const offersSwitch = visitor.getByRole("switch", { name: /Offers/ });
  await expect(offersSwitch).toBeChecked();
  await offersSwitch.uncheck();
  await visitor.getByRole("button", { name: "Save preferences" }).click();
  await expect(visitor.getByRole("status")).toHaveText("Your preferences are saved.");
  await expect(visitor.getByRole("switch", { name: /Offers/ })).not.toBeChecked();

  // The API and the contact page answer the choice.
  const chosen = await api<{ name: string; subscribed: boolean }[]>(page, "GET", `/v1/contacts/${contactId}/topics`);
  expect(chosen.map(({ name, subscribed }) => ({ name, subscribed })).sort((a, b) => a.name.localeCompare(b.name))).toEqual([
    { name: "Offers", subscribed: false },
    { name: "Roast of the month", subscribed: true },
  ]);
  await page.reload();
  await expect(page.getByRole("switch", { name: "Receives Offers" })).not.toBeChecked();
  await expect(page.getByRole("switch", { name: "Receives Roast of the month" })).toBeChecked();
  await expect(told(/^Unsubscribed from Offers.*on the preference page/)).toHaveCount(1);
  await finalScreenshot(page, testInfo, "consent-contact-page");
  await finalScreenshot(visitor, testInfo, "consent-preference-page");
});
