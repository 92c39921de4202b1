import http from "node:http";
import type { AddressInfo } from "node:net";
import { allowConsoleError, expect, finalScreenshot, signUp, test, uniqueEmail } from "./fixtures";

// Cross-site request forgery from a page on another port of the same host: the same site to the
// browser, so the victim's SameSite=Lax session cookie goes with its requests. The attack found: an
// HTML form posting text/plain whose body parsed as JSON invited the attacker as admin and minted
// an API key. Here the attacker's page tries that form, no-cors fetches with text/plain and without
// a body, and a CORS fetch with JSON; none may create anything.

/** The attacker's page: fires every request at the app, then says it is done. */
function attackerPage(app: string, attacker: string, invitationId: string) {
  // text/plain encodes the field as name=value: together, one JSON document.
  const formName = `{"email":"${attacker}","role":"admin","padding":"`.replace(/"/g, "&quot;");
  return `<!doctype html><html><body>
<iframe name="sink" title="sink"></iframe>
<form id="invite" method="POST" action="${app}/v1/invitations" enctype="text/plain" target="sink">
  <input name="${formName}" value='"}'>
</form>
<script>
  (async () => {
    document.getElementById("invite").submit();
    const attempts = [
      fetch("${app}/v1/api-keys", { method: "POST", mode: "no-cors", credentials: "include", headers: { "Content-Type": "text/plain" }, body: JSON.stringify({ name: "stolen" }) }),
      // No body, so no Content-Type to refuse: the Origin rule stops it.
      fetch("${app}/v1/invitations/${invitationId}/resend", { method: "POST", mode: "no-cors", credentials: "include" }),
      // JSON needs a CORS preflight, which the API never grants.
      fetch("${app}/v1/api-keys", { method: "POST", mode: "cors", credentials: "include", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "stolen too" }) }),
    ];
    await Promise.allSettled(attempts);
    await new Promise((resolve) => setTimeout(resolve, 500));
    document.title = "done";
  })();
</script>
</body></html>`;
}

test("a page on another port cannot use the signed-in user's cookie to write", async ({ page, baseURL }, testInfo) => {
  const app = new URL(baseURL!).origin;
  await signUp(page, { name: "Vic Victim", email: uniqueEmail("victim"), password: "password-123", organizationName: "Victim Co" });
  await page.goto("/team");

  // The dashboard itself can write: an invitation to resend later, and the state before the attack.
  const dashboardFetch = (path: string, init?: { method: string; body: unknown }) =>
    page.evaluate(
      async ({ path, init }) => {
        const response = await fetch(
          path,
          init ? { method: init.method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(init.body) } : undefined,
        );
        return { status: response.status, body: await response.json() };
      },
      { path, init },
    );
  const invited = await dashboardFetch("/v1/invitations", { method: "POST", body: { email: uniqueEmail("teammate"), role: "member" } });
  expect(invited.status).toBe(201);
  const keysBefore = (await dashboardFetch("/v1/api-keys")).body;

  const attacker = uniqueEmail("attacker");
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(attackerPage(app, attacker, invited.body.id));
  });
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const evil = `http://localhost:${(server.address() as AddressInfo).port}`;
  try {
    const answers: { url: string; status: number }[] = [];
    // The attacks are all POSTs; the team page's own reads (GET /v1/invitations, /v1/members) may
    // still be answered after this point, as they were in CI, and are not the attacker's.
    page.on("response", (response) => {
      if (response.url().startsWith(`${app}/v1/`) && response.request().method() === "POST") answers.push({ url: response.url(), status: response.status() });
    });
    // What the browser reports about the refused requests, and the refused frame, is expected here.
    allowConsoleError(page, /status of 4(03|15)|CORS|Failed to fetch|net::ERR_FAILED|Refused to (display|frame)|X-Frame-Options|frame-ancestors/i);
    await page.goto(`${evil}/`);
    await expect(page).toHaveTitle("done", { timeout: 20_000 });
    await expect.poll(() => answers.length).toBeGreaterThanOrEqual(3);

    expect(answers.find((a) => a.url.endsWith("/v1/invitations"))?.status).toBe(415);
    expect(answers.find((a) => a.url.endsWith("/resend"))?.status).toBe(403);
    expect(answers.filter((a) => a.url.endsWith("/v1/api-keys")).map((a) => a.status)).toEqual(expect.arrayContaining([415]));
    expect(answers.every((a) => a.status >= 400)).toBe(true);
    await finalScreenshot(page, testInfo, "csrf-attacker-page");
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }

  // Back on the dashboard: no invitation for the attacker, no new key.
  await page.goto("/team");
  const invitations = (await dashboardFetch("/v1/invitations")).body;
  expect(JSON.stringify(invitations)).not.toContain(attacker);
  expect((await dashboardFetch("/v1/api-keys")).body).toEqual(keysBefore);
});
