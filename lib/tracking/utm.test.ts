import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { env } from "@/lib/env";
import { addTracking, trackableLinks } from "./add-tracking";
import { verifyClickToken } from "./token";
import { textWithUtm, withUtm } from "./utm";

const UTM = { source: "newsletter", medium: "email", campaign: "Spring sale" };
const tokenOf = (url: string) => new URL(url).pathname.split("/").pop()!;

describe("withUtm", () => {
  it("appends each parameter to the query, before the fragment, and keeps the rest as written", () => {
    expect(withUtm("https://example.com/a", UTM)).toBe("https://example.com/a?utm_source=newsletter&utm_medium=email&utm_campaign=Spring%20sale");
    expect(withUtm("https://example.com/a?x=1&y=%41#part", { source: "n" })).toBe("https://example.com/a?x=1&y=%41&utm_source=n#part");
    expect(withUtm("https://example.com/a?", { medium: "m" })).toBe("https://example.com/a?utm_medium=m");
    expect(withUtm("https://example.com/a?x=1&", { medium: "m" })).toBe("https://example.com/a?x=1&utm_medium=m");
    expect(withUtm("https://example.com/#/route?q", { campaign: "c" })).toBe("https://example.com/?utm_campaign=c#/route?q");
  });

  it("never overrides a parameter the link already has, however it is spelled", () => {
    expect(withUtm("https://example.com/?utm_source=partner", UTM)).toBe("https://example.com/?utm_source=partner&utm_medium=email&utm_campaign=Spring%20sale");
    expect(withUtm("https://example.com/?UTM_Medium=x&utm%5Fcampaign=y&utm_source", UTM)).toBe("https://example.com/?UTM_Medium=x&utm%5Fcampaign=y&utm_source");
    expect(withUtm("https://example.com/?a=%E0%A4", { source: "s" })).toBe("https://example.com/?a=%E0%A4&utm_source=s");
  });

  it("leaves the link alone without parameters", () => {
    expect(withUtm("https://example.com/a", null)).toBe("https://example.com/a");
    expect(withUtm("https://example.com/a", {})).toBe("https://example.com/a");
  });
});

describe("textWithUtm", () => {
  it("adds the parameters to the web links of plain text, not to its punctuation or the platform's own links", () => {
    const text = `Read https://example.com/a. See (https://example.com/b) and https://en.wikipedia.org/wiki/Mail_(protocol), [https://example.com/c?x=1]\nUnsubscribe: ${env.appUrl}/u/abc`;
    const eligible = (url: string) => trackableLinks(`<a href="${url}">x</a>`).length === 1;
    expect(textWithUtm(text, { source: "n" }, eligible)).toBe(
      "Read https://example.com/a?utm_source=n. See (https://example.com/b?utm_source=n) and " +
        "https://en.wikipedia.org/wiki/Mail_(protocol)?utm_source=n, [https://example.com/c?x=1&utm_source=n]\n" +
        `Unsubscribe: ${env.appUrl}/u/abc`,
    );
  });
});

describe("addTracking with a broadcast's, step's or email's settings", () => {
  const emailId = randomUUID();
  const HTML = `<html><body><a href="https://example.com/a?utm_source=partner&amp;x=1">a</a> <a href='https://example.com/b'>b</a> <a href="${env.appUrl}/u/t">unsubscribe</a></body></html>`;

  it("leads each redirect to the link with its UTM parameters, on the tracking host given", () => {
    const { html, links } = addTracking(HTML, emailId, { baseUrl: "https://links.acme.test", utm: UTM });
    expect(links).toEqual([
      "https://example.com/a?utm_source=partner&x=1&utm_medium=email&utm_campaign=Spring%20sale",
      "https://example.com/b?utm_source=newsletter&utm_medium=email&utm_campaign=Spring%20sale",
    ]);
    const redirects = [...html.matchAll(/href="(https:\/\/links\.acme\.test\/t\/c\/[^"]+)"/g)].map((m) => verifyClickToken(tokenOf(m[1]))!.url);
    expect(redirects).toEqual(links);
    expect(html).toMatch(/<img src="https:\/\/links\.acme\.test\/t\/o\/[^"]+"/);
    expect(html).toContain(`href="${env.appUrl}/u/t"`);
    // The stored HTML of a sent email is read again for its links (the scanner rule): its own redirects are not among them.
    expect(trackableLinks(html, "https://other.example")).toEqual([]);
  });

  it("without click tracking keeps the links, with their UTM parameters, and without open tracking adds no pixel", () => {
    const { html, links } = addTracking(HTML, emailId, { clicks: false, opens: false, utm: { campaign: "c&d" } });
    expect(links).toEqual([]);
    expect(html).toBe(
      `<html><body><a href="https://example.com/a?utm_source=partner&amp;x=1&amp;utm_campaign=c%26d">a</a> <a href="https://example.com/b?utm_campaign=c%26d">b</a> <a href="${env.appUrl}/u/t">unsubscribe</a></body></html>`,
    );
    const opensOnly = addTracking(HTML, emailId, { clicks: false });
    expect(opensOnly.html).not.toContain("/t/c/");
    expect(opensOnly.html).toContain(`${env.appUrl}/t/o/`);
  });
});
