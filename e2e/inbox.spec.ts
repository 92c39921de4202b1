import { execFileSync } from "node:child_process";
import { startSmtpSink, type SmtpSink } from "../lib/testing/smtp-sink";
import { api, expect, finalScreenshot, signUp, test, uniqueEmail } from "./fixtures";

type Seeded = { interested: string; question: string; pricingReplyId: string };

/** Replies arrive by IMAP, which the e2e server does not poll: two answered threads are written with the app's Prisma client. */
function seedThreads(userEmail: string, inboxId: string): Seeded {
  const databaseUrl = `postgresql://postgres:postgres@127.0.0.1:${process.env.E2E_PG_PORT ?? "54349"}/mailplatform`;
  const out = execFileSync("npx", ["tsx", "e2e/seed-inbox-threads.ts", userEmail, inboxId], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: "utf8",
  });
  return JSON.parse(out.slice(out.indexOf("{"))) as Seeded;
}

let sink: SmtpSink;

test.beforeAll(async () => {
  sink = await startSmtpSink();
});

test.afterAll(async () => {
  await sink?.close();
});

test.describe.configure({ timeout: 180_000 });

test("a rep works the unified inbox: moves with j and k, filters interested, reads a thread, edits and sends the shared draft, marks it done with e", async ({
  page,
  freshPage,
}, testInfo) => {
  const rep = uniqueEmail("inbox");
  await signUp(page, { name: "Rae Rep", email: rep, password: "correct horse battery", organizationName: "Inbox Co" });

  // The rep's mailbox: its SMTP server is the sink, its address proven by the link mailed through it.
  const tag = Date.now().toString(36);
  const address = `rae-${tag}@sales.test`;
  const inbox = await api<{ id: string }>(page, "POST", "/v1/inboxes", {
    name: "Rae's mailbox",
    from_email: address,
    from_name: "Rae Rep",
    smtp: { host: sink.host, port: sink.port, secure: false, username: "rae", password: "secret" },
  });
  await api(page, "POST", `/v1/inboxes/${inbox.id}/send-confirmation`);
  const confirmation = (await sink.waitFor(1, 30_000)).find((m) => m.envelopeTo.includes(address))!;
  const confirmLink = /https?:\/\/\S+\/confirm-sender\/[A-Za-z0-9_-]+/.exec(confirmation.parsed.text ?? "")![0];
  const reader = await freshPage();
  await reader.goto(new URL(confirmLink).pathname);
  await reader.getByRole("button", { name: `Confirm ${address}` }).click();
  await expect(reader.getByRole("status")).toContainText("is confirmed");
  const seeded = seedThreads(rep, inbox.id);

  // The Inbox, from the navigation: both replies, newest first.
  await page.goto("/");
  await page.getByRole("navigation").getByRole("link", { name: "Inbox" }).first().click();
  await expect(page.getByRole("heading", { name: "Inbox", exact: true })).toBeVisible();
  const threads = page.getByRole("list", { name: "Threads" }).getByRole("button");
  await expect(threads).toHaveCount(2);
  await expect(threads.nth(0)).toContainText("Quinn Query");
  await expect(threads.nth(0)).toContainText("Needs reply");
  await expect(threads.nth(1)).toContainText("Grace Hopper");
  await expect(threads.nth(1)).toContainText("Draft");

  // j and k move through the threads, opening each.
  await page.keyboard.press("j");
  await expect(threads.nth(0)).toHaveAttribute("aria-current", "true");
  const pane = page.getByRole("region", { name: "Thread" });
  await expect(pane.getByText("Who gave you my address?")).toBeVisible();
  await page.keyboard.press("j");
  await expect(threads.nth(1)).toHaveAttribute("aria-current", "true");
  await page.keyboard.press("k");
  await expect(threads.nth(0)).toHaveAttribute("aria-current", "true");

  // Only the interested lead.
  await page.getByLabel("Category").first().selectOption("interested");
  await expect(page).toHaveURL(/category=interested/);
  await expect(threads).toHaveCount(1);
  await threads.first().click();
  await expect(page).toHaveURL(new RegExp(`thread=${seeded.interested}`));

  // Read it: the lead's reply in full, then the shared draft, which r focuses.
  await expect(pane.getByText("What does it cost for 20 seats?")).toBeVisible();
  const reply = page.getByLabel("Reply", { exact: true });
  await expect(reply).toHaveValue("Hi Grace, 20 seats are");
  await page.keyboard.press("r");
  await expect(reply).toBeFocused();
  await reply.fill("Hi Grace, 20 seats are 400 € a month. Shall we talk on Monday?");
  await page.getByRole("button", { name: "Send reply" }).click();
  await expect(page.getByText("Reply sent")).toBeVisible();

  // The worker sends it from Rae's mailbox as a reply Grace's mail client threads.
  await expect
    .poll(() => sink.messages.filter((m) => m.envelopeFrom === address && m.parsed.subject === "Re: Idea for Grace").length, { timeout: 60_000 })
    .toBe(1);
  const sent = sink.messages.find((m) => m.envelopeFrom === address && m.parsed.subject === "Re: Idea for Grace")!;
  expect(sent.parsed.inReplyTo).toBe(seeded.pricingReplyId);
  expect(sent.parsed.text?.trim()).toBe("Hi Grace, 20 seats are 400 € a month. Shall we talk on Monday?");
  // The draft is gone, and the thread shows the reply.
  await expect(reply).toHaveValue("");
  await expect(pane.getByText("Shall we talk on Monday?")).toBeVisible();
  const thread = await api<{ draft: unknown; emails: unknown[] }>(page, "GET", `/v1/threads/${seeded.interested}`);
  expect(thread.draft).toBeNull();
  expect(thread.emails).toHaveLength(3);

  // Filed with e: it leaves the interested list and is done.
  await page.getByRole("heading", { name: "Re: Idea for Grace" }).click();
  await page.keyboard.press("e");
  await expect(page.getByText("Marked done")).toBeVisible();
  await expect(threads).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "No threads match" })).toBeVisible();
  expect((await api<{ category: string }>(page, "GET", `/v1/threads/${seeded.interested}`)).category).toBe("done");

  await page.getByLabel("Category").first().selectOption("done");
  await expect(threads).toHaveCount(1);
  await finalScreenshot(page, testInfo, "inbox");
});
