import { describe, expect, it } from "vitest";
import { imageFileProblem, MAX_MEDIA_BYTES } from "./media-limits";

// The editor's check of a dropped, pasted or picked file, before it is read and sent.
describe("imageFileProblem", () => {
  it("lets an image of an accepted type within the limit through, and one whose type the browser did not say", () => {
    expect(imageFileProblem({ name: "hero.png", size: MAX_MEDIA_BYTES, type: "image/png" })).toBeNull();
    expect(imageFileProblem({ name: "photo.webp", size: 1000, type: "image/webp" })).toBeNull();
    expect(imageFileProblem({ name: "pasted", size: 1000, type: "" })).toBeNull();
  });

  it("says a file is too large with its size and the limit", () => {
    expect(imageFileProblem({ name: "holiday.jpg", size: 20 * 1024 * 1024, type: "image/jpeg" })).toBe("holiday.jpg is 20.0 MB: an image may be at most 5 MB");
    expect(imageFileProblem({ name: "edge.png", size: MAX_MEDIA_BYTES + 1, type: "image/png" })).toMatch(
      /^edge\.png is 5\.0 MB: an image may be at most 5 MB$/,
    );
  });

  it("names the accepted types for an SVG or a program", () => {
    expect(imageFileProblem({ name: "logo.svg", size: 100, type: "image/svg+xml" })).toBe(
      "logo.svg is not a PNG, JPEG, GIF or WebP image (SVG is not accepted)",
    );
    expect(imageFileProblem({ name: "setup.exe", size: 100, type: "application/x-msdownload" })).toMatch(/not a PNG, JPEG, GIF or WebP image/);
  });
});
