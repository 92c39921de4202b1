import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { test as base, expect, type Browser, type Page, type TestInfo } from "@playwright/test";
import { simpleParser } from "mailparser";
import { e2eDataDir } from "../playwright.config";

type ErrorWatch = { errors: string[]; allowed: RegExp[] };

const watches = new WeakMap<Page, ErrorWatch>();

/** Records every console error and uncaught page error of a page. */
function watchErrors(page: Page, label: string): ErrorWatch {
  const watch: ErrorWatch = { errors: [], allowed: [] };
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const text = message.text();
    if (watch.allowed.some((pattern) => pattern.test(text))) return;
    const where = message.location().url ? ` (${message.location().url})` : "";
    watch.errors.push(`[${label}] console.error: ${text}${where}`);
  });
  page.on("pageerror", (error) => watch.errors.push(`[${label}] page error: ${error.stack ?? error.message}`));
  watches.set(page, watch);
  return watch;
}

/**
 * Lets one expected console error through, e.g. the browser's "Failed to load resource: … 400"
 * when a test submits a form the server rejects on purpose. Everything else still fails the test.
 */
export function allowConsoleError(page: Page, pattern: RegExp) {
  watches.get(page)?.allowed.push(pattern);
}

type Fixtures = {
  /** Opens a page in a new browser context (no cookies), watched for errors like `page`. */
  freshPage: () => Promise<Page>;
};

/** Playwright's `test`, failing any test whose pages log a console error or throw. */
export const test = base.extend<Fixtures>({
  page: async ({ page }, provide) => {
    const watch = watchErrors(page, "page");
    await provide(page);
    expect(watch.errors, "the browser logged errors").toEqual([]);
  },
  freshPage: async ({ browser }, provide) => {
    const contexts: Awaited<ReturnType<Browser["newContext"]>>[] = [];
    const pageWatches: ErrorWatch[] = [];
    await provide(async () => {
      const context = await browser.newContext();
      contexts.push(context);
      const page = await context.newPage();
      pageWatches.push(watchErrors(page, `fresh page ${contexts.length}`));
      return page;
    });
    const errors = pageWatches.flatMap((w) => w.errors);
    await Promise.all(contexts.map((c) => c.close()));
    expect(errors, "the browser logged errors").toEqual([]);
  },
});

export { expect };

/** The dashboard's home (the organization overview), where signing in and joining land. */
export const OVERVIEW_URL = /^https?:\/\/[^/]+\/$/;

let counter = 0;

/** An address no earlier run has used. */
export function uniqueEmail(prefix = "user"): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 7)}@example.test`;
}

export type NewUser = { name: string; email: string; password: string; organizationName?: string };

/**
 * Signs up through the form, verifies the address with the link from the mail (unless
 * `verify: false`), and waits until the dashboard (or `landOn`) is shown. The visitor is signed in
 * afterwards.
 */
export async function signUp(page: Page, user: NewUser, options: { path?: string; landOn?: RegExp; verify?: boolean } = {}) {
  await page.goto(options.path ?? "/sign-up");
  await page.getByLabel("Full name").fill(user.name);
  const email = page.getByLabel("Work email");
  if (await email.isEditable()) await email.fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  if (user.organizationName) await page.getByLabel("Organization name").fill(user.organizationName);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/sign-up"), { timeout: 30_000 });
  if (options.verify !== false) await verifyEmail(page, user.email);
  await page.waitForURL(options.landOn ?? ((url) => !url.pathname.startsWith("/sign-up")), { timeout: 30_000 });
}

/** Opens the verification link mailed to `email` and confirms it; the page then goes where the link says. */
async function verifyEmail(page: Page, email: string) {
  const mail = await newestMailTo(email, 15_000, "Verify your email address");
  const match = /(\/verify-email\/[A-Za-z0-9_-]{32,}(?:\?callbackUrl=[^\s"<>]+)?)/.exec(mail.text);
  if (!match) throw new Error(`No verification link in ${mail.file}`);
  await page.goto(match[1]);
  await page.getByRole("button", { name: "Verify email address" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/verify-email"), { timeout: 30_000 });
}

/** Attaches a full-page screenshot of where the test ended; every e2e test finishes with one. */
export async function finalScreenshot(page: Page, testInfo: TestInfo, name: string) {
  const file = testInfo.outputPath(`${name.replace(/[^a-z0-9-]+/gi, "-")}.png`);
  // A scrolled page would paint the sticky header halfway down the full-page capture.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
}

const mailDir = path.resolve(e2eDataDir, "mail");

export type CapturedMail = { file: string; subject: string; text: string; html: string };

/**
 * The newest system email to `to` that the e2e server wrote under .data/e2e/mail (it does when
 * SMTP_URL is unset). Polls until one appears.
 */
export async function newestMailTo(to: string, timeoutMs = 15_000, subject?: string): Promise<CapturedMail> {
  const wanted = to.toLowerCase().replace(/[^a-z0-9@._+-]/g, "_");
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = existsSync(mailDir)
      ? readdirSync(mailDir)
          .filter((name) => name.endsWith(".eml") && name.toLowerCase().includes(wanted))
          .map((name) => path.join(mailDir, name))
          .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs || b.localeCompare(a))
      : [];
    for (const file of files) {
      const parsed = await simpleParser(readFileSync(file));
      if (subject !== undefined && parsed.subject !== subject) continue;
      return { file, subject: parsed.subject ?? "", text: parsed.text ?? "", html: typeof parsed.html === "string" ? parsed.html : "" };
    }
    if (Date.now() > deadline) throw new Error(`No email to ${to} under ${mailDir}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The invitation link of an invitation email, as a path (/invitations/<token>). */
export function invitationPath(mail: CapturedMail): string {
  const match = /https?:\/\/[^\s"<>]+(\/invitations\/[A-Za-z0-9_-]{32,})/.exec(mail.text) ?? /(\/invitations\/[A-Za-z0-9_-]{32,})/.exec(mail.html);
  if (!match) throw new Error(`No invitation link in ${mail.file}`);
  return match[1];
}

/**
 * Headers of a write the dashboard's own page would send: the session cookie alone is refused for
 * writes (CSRF), a browser adds the page's Origin. For page.request calls, which add none.
 */
export const fromDashboard = (page: Page) => ({ origin: new URL(page.url()).origin });

/** A /v1 call from inside the signed-in page, as the dashboard itself makes it (same origin, session cookie). */
export async function api<T = Record<string, unknown>>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        headers: body === undefined ? { accept: "application/json" } : { accept: "application/json", "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, json: await response.json() };
    },
    { method, path, body },
  );
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.json)}`);
  return answer.json as T;
}
