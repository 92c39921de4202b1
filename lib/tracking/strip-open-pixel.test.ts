import { describe, expect, it } from "vitest";
import { addTracking } from "./add-tracking";
import { stripOpenPixel } from "./strip-open-pixel";

describe("stripOpenPixel", () => {
  it("removes the pixel addTracking inserts and keeps everything else, tracked links included", () => {
    const original = '<html><body><p>Hi <a href="https://example.org/a">there</a></p><img src="https://cdn.example.org/logo.png" alt="logo"></body></html>';
    const { html } = addTracking(original, "0b7a9c1e-3d2f-4a5b-8c6d-7e8f9a0b1c2d");
    expect(html).toContain("/t/o/");
    const shown = stripOpenPixel(html);
    expect(shown).not.toContain("/t/o/");
    expect(shown).toContain('<img src="https://cdn.example.org/logo.png" alt="logo">');
    expect(shown).toContain("/t/c/");
    expect(shown.length).toBeLessThan(html.length);
  });

  it("leaves HTML without a pixel unchanged", () => {
    const html = '<p><img src="https://example.org/t/other.png"></p>';
    expect(stripOpenPixel(html)).toBe(html);
  });
});
