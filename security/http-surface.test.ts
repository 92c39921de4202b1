import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import * as unknownV1 from "@/app/v1/[[...path]]/route";
import { env } from "@/lib/env";
import { pageContentSecurityPolicy } from "@/lib/http/security-headers";
import { createTestOrg } from "@/lib/testing/api";
import nextConfig from "@/next.config";
import { config as proxyConfig, proxy } from "@/proxy";

// What a browser or a client sees of the HTTP layer beyond the operations: headers, unknown paths,
// paths Next.js cannot decode, and routes that must not exist in production.
// e2e/security-http.spec.ts checks the same through the production server.

const at = (path: string) => new NextRequest(new URL(path, env.appUrl));

describe("paths", () => {
  it("answers 400 with the JSON error body for %-escapes that do not decode (they were a 500)", async () => {
    for (const path of ["/v1/broadcasts/%E0%A4%A", "/v1/contacts/%FF", "/t/o/%E0%A4%A", "/broadcasts/%C0", "/emails/%"]) {
      const response = proxy(at(path));
      expect(response.status, path).toBe(400);
      expect(await response.json()).toMatchObject({ code: "VALIDATION_ERROR" });
    }
    // The proxy runs for /v1 and the tracking routes only when their path holds a %-escape.
    expect(proxyConfig.matcher).toEqual(expect.arrayContaining(["/v1/:path(.*%.*)", "/t/:path(.*%.*)"]));
    // Escapes that decode go on to the route, where a line break in an id is a 400 of its own.
    expect(proxy(at("/v1/broadcasts/%0D%0A")).headers.get("x-middleware-next")).toBe("1");
  });

  it("answers unknown /v1 paths, whatever the method, with the JSON 404 body", async () => {
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"] as const) {
      const response = await unknownV1[method]();
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(await response.json()).toMatchObject({ code: "NOT_FOUND", error: expect.any(String) });
    }
  });
});

describe("headers", () => {
  it("sends nosniff, a same-origin Referrer-Policy and DENY framing with every answer, and a data-only CSP with /v1", async () => {
    const rules = await nextConfig.headers!();
    const all = rules.find((rule) => rule.source === "/:path*")!;
    expect(Object.fromEntries(all.headers.map((h) => [h.key.toLowerCase(), h.value]))).toEqual({
      "x-content-type-options": "nosniff",
      "referrer-policy": "same-origin",
      "x-frame-options": "DENY",
    });
    for (const source of ["/v1/:path*", "/t/:path*", "/api/:path*"]) {
      const csp = rules.find((rule) => rule.source === source)?.headers.find((h) => h.key === "Content-Security-Policy")?.value;
      expect(csp, source).toMatch(/default-src 'none'.*frame-ancestors 'none'/);
    }
  });

  it("gives every page a CSP with a fresh nonce, passed on to Next.js, that no other site may frame", async () => {
    const first = proxy(at("/contacts"));
    const second = proxy(at("/contacts"));
    const policy = first.headers.get("content-security-policy")!;
    expect(policy).toMatch(/frame-ancestors 'none'/);
    expect(policy).toMatch(/object-src 'none'/);
    const nonce = /'nonce-([^']+)'/.exec(policy)![1];
    expect(nonce.length).toBeGreaterThanOrEqual(16);
    expect(second.headers.get("content-security-policy")).not.toContain(nonce);
    // Next.js reads the nonce from the request's copy of the policy.
    expect(first.headers.get("x-middleware-request-content-security-policy")).toBe(policy);
    // HTTP here: no HSTS; the policy asks for https only when APP_URL is https.
    expect(first.headers.get("strict-transport-security")).toBeNull();
    expect(pageContentSecurityPolicy("n", { https: true })).toMatch(/upgrade-insecure-requests/);
  });

  it("sends the RateLimit headers with /v1 answers", async () => {
    const org = await createTestOrg("Headers");
    const answer = await org.owner.api.get("/v1/api-keys");
    expect(answer.headers.get("ratelimit-policy")).toMatch(/^"key";q=\d+;w=\d+, "organization";q=\d+;w=\d+$/);
    expect(answer.headers.get("ratelimit")).toMatch(/^"key";r=\d+;t=\d+, "organization";r=\d+;t=\d+$/);
  });
});
