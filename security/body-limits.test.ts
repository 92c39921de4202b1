import { describe, expect, it } from "vitest";
import * as accountProfile from "@/app/api/account/route";
import * as changePassword from "@/app/api/account/password/route";
import * as resetPassword from "@/app/api/account/password-reset/route";
import * as requestReset from "@/app/api/account/password-reset/request/route";
import * as disableTwoFactor from "@/app/api/account/two-factor/disable/route";
import * as enableTwoFactor from "@/app/api/account/two-factor/enable/route";
import * as verifyEmail from "@/app/api/account/verify-email/route";
import * as nextAuth from "@/app/api/auth/[...nextauth]/route";
import * as switchOrganization from "@/app/api/session/organization/route";
import * as createOrganization from "@/app/api/session/organizations/route";
import * as signUp from "@/app/api/sign-up/route";
import { createUser, sessionCookie } from "@/lib/testing/accounts";
import nextConfig from "@/next.config";
import { config as proxyConfig } from "@/proxy";

// Trust, second pass: /api/sign-up and the other dashboard routes read a whole body (up to the 10 MB
// Next.js buffers for the proxy) before their 16 KB check; 60 parallel requests added +622 MB that
// stayed. Every app/api route that reads a body now stops reading once the limit is passed.

const CHUNK = 8 * 1024;
const OFFERED = 10 * 1024 * 1024;

/** A client that would send 10 MB, 8 KB at a time, as fast as the server reads; counts what was read. */
function hugeBody() {
  const state = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled >= OFFERED) return controller.close();
      state.pulled += CHUNK;
      controller.enqueue(new Uint8Array(CHUNK).fill(0x20));
    },
  });
  return { stream, state };
}

type Handler = (request: Request, context: never) => Promise<Response>;

const routes: [string, string, Handler][] = [
  ["/api/sign-up", "POST", signUp.POST],
  ["/api/account", "PATCH", accountProfile.PATCH],
  ["/api/account/password", "POST", changePassword.POST],
  ["/api/account/password-reset", "POST", resetPassword.POST],
  ["/api/account/password-reset/request", "POST", requestReset.POST],
  ["/api/account/two-factor/enable", "POST", enableTwoFactor.POST],
  ["/api/account/two-factor/disable", "POST", disableTwoFactor.POST],
  ["/api/account/verify-email", "POST", verifyEmail.POST],
  ["/api/session/organizations", "POST", createOrganization.POST],
  ["/api/session/organization", "POST", switchOrganization.POST],
  ["/api/auth/callback/credentials", "POST", nextAuth.POST as unknown as Handler],
];

describe("request bodies of the dashboard's routes", () => {
  it("stop being read once past the limit, and answer 413", async () => {
    const user = await createUser();
    const cookie = await sessionCookie(user.id);
    for (const [path, method, handler] of routes) {
      const { stream, state } = hugeBody();
      const contentType = path.startsWith("/api/auth/") ? "application/x-www-form-urlencoded" : "application/json";
      const request = new Request(new URL(path, "http://localhost"), {
        method,
        headers: { "content-type": contentType, "sec-fetch-site": "same-origin", cookie },
        body: stream,
        duplex: "half",
      } as RequestInit);
      const context = { params: Promise.resolve({ nextauth: ["callback", "credentials"] }) } as never;
      const response = await handler(request, context);
      expect(response.status, path).toBe(413);
      expect((await response.json()).code, path).toBe("PAYLOAD_TOO_LARGE");
      // Read to the limit (16 KB) and a chunk or two past it, never the 10 MB offered.
      expect(state.pulled, path).toBeLessThanOrEqual(64 * 1024);
    }
  });

  it("are not buffered whole by the proxy on the way to those routes", () => {
    // Next.js buffers a body for the proxy (up to proxyClientMaxBodySize, 10 MB by default) and
    // waits for all of it before the route runs: the dashboard's /api routes stay out of the proxy
    // (but for undecodable paths), and what reaches it is bounded.
    const matchers = proxyConfig.matcher.map((source) => new RegExp(`^${source.replace("/:path(.*%.*)", "/.*%.*")}$`));
    for (const path of routes.map(([p]) => p))
      expect(
        matchers.some((m) => m.test(path)),
        path,
      ).toBe(false);
    expect(matchers.some((m) => m.test("/sign-in"))).toBe(true);
    expect(nextConfig.experimental?.proxyClientMaxBodySize).toBeLessThanOrEqual(64 * 1024);
    // A server action's body may not be larger than what the proxy passes on whole.
    expect(nextConfig.experimental?.serverActions?.bodySizeLimit).toBe(nextConfig.experimental?.proxyClientMaxBodySize);
  });
});
