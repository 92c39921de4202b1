import { simpleParser, type AddressObject, type ParsedMail } from "mailparser";
import MailComposer from "nodemailer/lib/mail-composer";
import { describe, expect, it } from "vitest";
import { mimeMessage, multipartBoundary, type MimeInput } from "./mime-message";

const viaNodemailer = (input: MimeInput) =>
  new Promise<Buffer>((resolve, reject) =>
    new MailComposer({
      from: input.from,
      to: input.to,
      replyTo: input.replyTo ?? undefined,
      subject: input.subject,
      messageId: input.messageId,
      inReplyTo: input.inReplyTo ?? undefined,
      references: input.references,
      headers: input.headers,
      text: input.text,
      html: input.html ?? undefined,
    })
      .compile()
      .build((error, message) => (error ? reject(error) : resolve(message))),
  );

const addresses = (value: AddressObject | AddressObject[] | undefined) =>
  [value ?? []].flat().flatMap((list) => list.value.map((entry) => ({ name: entry.name, address: entry.address })));

/** What a receiving client reads from a message. */
const seen = (mail: ParsedMail) => ({
  from: addresses(mail.from),
  to: addresses(mail.to),
  replyTo: addresses(mail.replyTo),
  subject: mail.subject,
  messageId: mail.messageId,
  inReplyTo: mail.inReplyTo,
  references: mail.references,
  text: mail.text?.replace(/\r\n/g, "\n"),
  html: mail.html === false ? false : mail.html?.replace(/\r\n/g, "\n"),
  listUnsubscribe: mail.headers.get("list-unsubscribe"),
  listUnsubscribePost: mail.headers.get("list-unsubscribe-post"),
});

const base: MimeInput = {
  from: { name: "Bench News", address: "news@bench.example" },
  to: "reader@example.org",
  subject: "News of the week",
  messageId: "<0b7a9c1e-3d2f-4a5b-8c6d-7e8f9a0b1c2d@bench.example>",
  text: "Hello,\nhere is what happened.",
  html: "<html><body><p>Hello,</p></body></html>",
};

const cases: [string, MimeInput][] = [
  ["plain ASCII with both parts", base],
  [
    "a broadcast's headers and long lines",
    {
      ...base,
      headers: { "List-Unsubscribe": `<https://app.example/u/${"A".repeat(43)}/one-click>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      html: `<html><body><p>${"Here is what happened this week. ".repeat(40)}</p><a href="https://app.example/t/c/${"B".repeat(120)}">more</a></body></html>`,
      text: `${"word ".repeat(200)}\n\n--\nUnsubscribe: https://app.example/u/${"A".repeat(43)}`,
    },
  ],
  [
    "non-ASCII names, subject and body, an internationalized domain",
    {
      ...base,
      from: { name: 'Jõgeva Ülikool, "Büroo"', address: "info@jõgeva.ee" },
      to: "Mäger <mäger@straße.de>",
      replyTo: "Support <help@bench.example>",
      subject: "Grüße aus Tartu — 🎉 neue Ausgabe mit sehr langem Betreff, der gefaltet werden muss",
      text: "Tere! Äike ja õun.\n.leading dot line\n",
      html: "<p>Tere! Äike ja õun.</p>\n.<b>dot</b>",
    },
  ],
  [
    "mostly non-Latin text",
    {
      ...base,
      subject: "日本語の件名です",
      from: { name: "差出人", address: "a@bench.example" },
      text: "こんにちは、世界。".repeat(30),
      html: `<p>${"こんにちは".repeat(40)}</p>`,
    },
  ],
  [
    "a threaded reply without HTML",
    {
      ...base,
      html: null,
      subject: "Re: Our call",
      inReplyTo: "<first@bench.example>",
      references: ["<first@bench.example>", "<second@bench.example>"],
      text: "Just following up.\r\nBest,\nMe",
    },
  ],
  ["names that need quoting", { ...base, from: { name: "O'Brien, Pat (Sales)", address: "pat@bench.example" }, to: '"Doe, Jane" <jane@example.org>' }],
];

describe("mimeMessage", () => {
  it.each(cases)("reads the same as nodemailer's composition: %s", async (_name, input) => {
    const ours = await simpleParser(mimeMessage(input).raw);
    const theirs = await simpleParser(await viaNodemailer(input));
    expect(seen(ours)).toEqual(seen(theirs));
  });

  it("keeps every line within the SMTP limit and ends lines with CRLF", () => {
    for (const [, input] of cases) {
      const raw = mimeMessage(input).raw.toString("utf8");
      expect(raw.split("\r\n").every((line) => Buffer.byteLength(line) <= 998)).toBe(true);
      expect(/[^\r]\n|\r[^\n]/.test(raw)).toBe(false);
    }
  });

  it("answers the envelope: the sender and each recipient's address, domains in punycode", () => {
    const { envelope } = mimeMessage({ ...base, from: { name: "X", address: "info@Jõgeva.ee" }, to: "Mäger <mager@Bücher.de>, b@example.org" });
    expect(envelope).toEqual({ from: "info@xn--jgeva-dua.ee", to: ["mager@xn--bcher-kva.de", "b@example.org"] });
  });

  it("gives each message its own boundary", () => {
    const boundary = (raw: Buffer) => /boundary="([^"]+)"/.exec(raw.toString())?.[1];
    expect(boundary(mimeMessage(base).raw)).not.toBe(boundary(mimeMessage(base).raw));
  });

  it("draws another boundary while a part contains the one drawn", () => {
    const drawn = ["=_taken", "=_also-taken", "=_free"];
    const boundary = multipartBoundary(["text with =_taken in it", "<p>=_also-taken</p>"], () => drawn.shift()!);
    expect(boundary).toBe("=_free");
    expect(() => multipartBoundary(["=_x"], () => "=_x")).toThrow();
  });
});
