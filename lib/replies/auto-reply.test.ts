import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { rawReply } from "@/lib/testing/sequence-fixtures";
import { awayUntil, isAutoReply, returnDate } from "./auto-reply";

const mail = (options: { subject: string; body?: string; headers?: string[] }) =>
  simpleParser(rawReply({ from: "kim@acme.test", to: "sam@sales.test", subject: options.subject, body: options.body, headers: options.headers }));

const NOV_26 = new Date("2026-11-26T10:00:00Z");

describe("automatic answers", () => {
  it("are known by RFC 3834's Auto-Submitted and the vendors' headers", async () => {
    for (const header of [
      "Auto-Submitted: auto-replied",
      "Auto-Submitted: auto-generated",
      "X-Autoreply: yes",
      "X-Autorespond: Out of office",
      "X-Auto-Response-Suppress: All",
      "Precedence: auto_reply",
    ]) {
      expect(isAutoReply(await mail({ subject: "Re: Quick question", headers: [header] })), header).toBe(true);
    }
    expect(isAutoReply(await mail({ subject: "Re: Quick question", headers: ["Auto-Submitted: no"] }))).toBe(false);
    expect(isAutoReply(await mail({ subject: "Re: Quick question", headers: ["Precedence: bulk"] }))).toBe(false);
  });

  it("are known by out-of-office subjects in English, German, French and Spanish, but not by the words of our own subject", async () => {
    for (const subject of [
      "Automatic reply: Quick question",
      "Out of Office: Quick question",
      "OOO until Monday",
      "Abwesenheitsnotiz: Quick question",
      "Automatische Antwort: Quick question",
      "Réponse automatique : Quick question",
      "Absent du bureau",
      "Respuesta automática: Quick question",
      "Fuera de la oficina",
    ]) {
      expect(isAutoReply(await mail({ subject }), "Quick question"), subject).toBe(true);
    }
    expect(isAutoReply(await mail({ subject: "Re: Quick question" }), "Quick question")).toBe(false);
    // Our own subject repeated in a reply is not an automatic answer, whatever its words.
    expect(isAutoReply(await mail({ subject: "Re: Out of office tips for your team" }), "Out of office tips for your team")).toBe(false);
  });
});

describe("the return date", () => {
  it("is read in English, German, French and Spanish, the latest date given", async () => {
    const cases: [string, string, { year: number; month: number; day: number }][] = [
      ["Out of office", "Thanks for your email. I am back on 3 December.", { year: 2026, month: 12, day: 3 }],
      ["Out of office", "I'm away from 28 November and will return on Monday, December 7th.", { year: 2026, month: 12, day: 7 }],
      ["Abwesenheitsnotiz", "Ich bin bis zum 3. Dezember nicht im Büro.", { year: 2026, month: 12, day: 3 }],
      ["Réponse automatique", "Je serai de retour le 4 décembre.", { year: 2026, month: 12, day: 4 }],
      ["Respuesta automática", "Estaré fuera de la oficina hasta el 9 de diciembre.", { year: 2026, month: 12, day: 9 }],
    ];
    for (const [subject, body, expected] of cases) expect(returnDate(await mail({ subject, body }), NOV_26), body).toEqual(expected);
  });

  it("leaves out our own quoted email, dates past, and dates too far out to be a leave", async () => {
    const quoted = await mail({
      subject: "Automatic reply",
      body: "I am out of the office.\n\nOn Tue, 24 Nov 2026, Sam wrote:\n> Shall we talk on 14 December?",
    });
    expect(returnDate(quoted, NOV_26)).toBeNull();
    expect(returnDate(await mail({ subject: "Out of office", body: "> Back on 5 December\nI am away." }), NOV_26)).toBeNull();
    expect(returnDate(await mail({ subject: "Out of office", body: "I was away on 20 November." }), NOV_26)).toBeNull();
    expect(returnDate(await mail({ subject: "Out of office", body: "Back on 3 June 2027." }), NOV_26)).toBeNull();
  });

  it("holds until the start of the return day in the recipient's zone, or a week when none is given", async () => {
    const back = await mail({ subject: "Out of office", body: "Back on 3 December." });
    expect(awayUntil(back, NOV_26, "Europe/Berlin")).toEqual(new Date("2026-12-02T23:00:00Z"));
    expect(awayUntil(back, NOV_26, "Asia/Tokyo")).toEqual(new Date("2026-12-02T15:00:00Z"));
    expect(awayUntil(await mail({ subject: "Out of office", body: "I am travelling." }), NOV_26, "UTC")).toEqual(new Date("2026-12-03T10:00:00Z"));
    // Already the return day where they are: nothing to hold.
    expect(awayUntil(await mail({ subject: "Out of office", body: "Back on 27 November." }), new Date("2026-11-26T23:30:00Z"), "Asia/Tokyo")).toBeNull();
  });
});
