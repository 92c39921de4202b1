import { describe, expect, it } from "vitest";
import { authOptions } from "@/lib/auth/options";
import { safeCallbackUrl } from "@/lib/client/callback-url";

// Issue 8, item 6: /sign-in?callbackUrl=%2F%09%2Fevil.test sent a user to evil.test (browsers drop
// the TAB and read "//evil.test"), and CR/LF made the page answer 500.
const ORIGIN = "https://app.example.test";

/** Where a browser ends up when told to go to `path` on our origin (the WHATWG parser, as Chromium). */
const landsOn = (path: string) => new URL(path, ORIGIN).origin;

const attacks = [
  "/\t/evil.test",
  "/\r/evil.test",
  "/\n/evil.test",
  "\t//evil.test",
  "//evil.test",
  "//evil.test/path",
  "/\\evil.test",
  "\\\\evil.test",
  "/\\/evil.test",
  "%2F%2Fevil.test",
  "/%2F%2Fevil.test",
  "/%2F/evil.test",
  "/%09/evil.test",
  "/%5Cevil.test",
  "/%255C%255Cevil.test",
  "https://evil.test/",
  "http:evil.test",
  "HTTPS://evil.test",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  " javascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "/%E0%A4%A",
  "/\u0000/evil.test",
  `/${"a".repeat(5000)}`,
];

describe("callbackUrl", () => {
  it.each(attacks)("keeps %j on this site", (attack) => {
    const result = safeCallbackUrl(attack);
    expect(result).toBe("/");
    expect(landsOn(result)).toBe(ORIGIN);
  });

  it("keeps ordinary paths with their query and fragment", () => {
    for (const path of ["/", "/team", "/broadcasts?status=draft&page=2", "/invitations/abc_DEF-123", "/emails#thread", "/contacts?search=a%20b"]) {
      expect(safeCallbackUrl(path)).toBe(path);
    }
    expect(safeCallbackUrl(["/team", "//evil.test"])).toBe("/team");
    expect(safeCallbackUrl(undefined, "/broadcasts")).toBe("/broadcasts");
  });

  it("holds for every attack in next-auth's own redirect too", async () => {
    const redirect = authOptions.callbacks!.redirect!;
    const baseUrl = ORIGIN;
    for (const attack of [...attacks, `${ORIGIN}.evil.test/`, `${ORIGIN}@evil.test/`]) {
      const target = await redirect({ url: attack, baseUrl });
      expect(new URL(target).origin, attack).toBe(ORIGIN);
      expect(target).not.toMatch(/[\r\n\t]/);
    }
    expect(await redirect({ url: `${ORIGIN}/team`, baseUrl })).toBe(`${ORIGIN}/team`);
    expect(await redirect({ url: "/team", baseUrl })).toBe(`${ORIGIN}/team`);
  });
});
