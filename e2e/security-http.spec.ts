import http from "node:http";
import { expect, finalScreenshot, signUp, test, uniqueEmail } from "./fixtures";

// The HTTP surface of the production server as a client meets it: security headers, the JSON 404
// under /v1, paths Next.js cannot decode, the benchmark's route. The fixture fails a test on any
// console error, so a page the Content-Security-Policy broke would fail here and everywhere else.

test("answers carry the security headers, unknown and undecodable paths are JSON errors, the bench route is gone", async ({ page, request }, testInfo) => {
  const signIn = await request.get("/sign-in");
  const policy = signIn.headers()["content-security-policy"];
  expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(policy).toMatch(/frame-ancestors 'none'/);
  expect(signIn.headers()).toMatchObject({ "x-content-type-options": "nosniff", "x-frame-options": "DENY", "referrer-policy": "same-origin" });
  expect((await request.get("/sign-in")).headers()["content-security-policy"]).not.toBe(policy);

  const api = await request.get("/v1/api-keys");
  expect(api.status()).toBe(401);
  expect(api.headers()).toMatchObject({ "x-content-type-options": "nosniff", "x-frame-options": "DENY" });
  expect(api.headers()["content-security-policy"]).toMatch(/default-src 'none'.*frame-ancestors 'none'/);

  for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
    const unknown = await request.fetch("/v1/no-such-thing/at/all", { method });
    expect(unknown.status(), method).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: "NOT_FOUND" });
  }
  for (const path of ["/v1/broadcasts/%E0%A4%A", "/t/o/%E0%A4%A", "/broadcasts/%E0%A4%A"]) {
    const malformed = await request.get(path);
    expect(malformed.status(), path).toBe(400);
    expect(await malformed.json()).toMatchObject({ code: "VALIDATION_ERROR" });
  }
  expect((await request.get("/v1/broadcasts/%0D%0A", { headers: { Authorization: "Bearer x" } })).status()).toBe(401);
  expect((await request.get("/api/bench/constant")).status()).toBe(404);

  // A signed-in dashboard page with its scripts running under the policy.
  await signUp(page, { name: "Cora Policy", email: uniqueEmail("csp"), password: "password-123" });
  await page.goto("/contacts");
  await expect(page.getByRole("heading", { name: "Contacts", exact: true })).toBeVisible();
  const answer = await page.evaluate(async () => {
    const response = await fetch("/v1/contacts?limit=1");
    return { status: response.status, policy: response.headers.get("ratelimit-policy"), limit: response.headers.get("ratelimit") };
  });
  expect(answer.status).toBe(200);
  expect(answer.policy).toMatch(/"key";q=\d+;w=\d+, "organization";q=\d+;w=\d+/);
  expect(answer.limit).toMatch(/"key";r=\d+;t=\d+/);
  await finalScreenshot(page, testInfo, "security-http");
});

/**
 * Sends `sent` bytes of a body to `path` and keeps the request open: the answer arrives only if the
 * server stops reading at its limit (a server that waited for the whole body would never answer).
 */
function postUnfinishedBody(baseURL: string, path: string, contentType: string, sent: number) {
  return new Promise<number>((resolve, reject) => {
    const request = http.request(new URL(path, baseURL), {
      method: "POST",
      headers: { "content-type": contentType, "sec-fetch-site": "same-origin", "transfer-encoding": "chunked" },
    });
    request.on("response", (response) => {
      resolve(response.statusCode ?? 0);
      response.resume();
      request.destroy();
    });
    request.on("error", reject);
    request.write(Buffer.alloc(sent, 0x20));
  });
}

test("the dashboard's routes refuse a large body while it is still arriving", async ({ baseURL }) => {
  // Behind the proxy, Next.js read a whole body (up to 10 MB) before the route could refuse it.
  expect(await postUnfinishedBody(baseURL!, "/api/sign-up", "application/json", 64 * 1024)).toBe(413);
  expect(await postUnfinishedBody(baseURL!, "/api/account/password-reset/request", "application/json", 64 * 1024)).toBe(413);
  expect(await postUnfinishedBody(baseURL!, "/api/auth/callback/credentials", "application/x-www-form-urlencoded", 64 * 1024)).toBe(413);
});
