import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { categorizeReply, replyWords } from "./categorize";

type Message = { from?: string; subject?: string; ours?: string; headers?: Record<string, string>; text: string };

// Each case is a whole message read by mailparser, as the IMAP poller reads it.
async function categoryOf(message: Message) {
  const head = [
    `From: ${message.from ?? "Lee Lead <lee@example.org>"}`,
    "To: rep@acme.test",
    `Subject: ${message.subject ?? "Re: A quick question"}`,
    "Message-ID: <reply-1@example.org>",
    "In-Reply-To: <sent-1@acme.test>",
    ...Object.entries(message.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
    "Content-Type: text/plain; charset=utf-8",
  ];
  // `ours`: the subject of the email answered, as record-reply.ts passes it.
  return categorizeReply(await simpleParser(`${head.join("\r\n")}\r\n\r\n${message.text.replace(/\n/g, "\r\n")}`), message.ours ?? "A quick question");
}

const quote = "\n\nOn Mon, 2 Feb 2026 at 10:00, Rep <rep@acme.test> wrote:\n> Could we book a call? Unsubscribe: https://acme.test/u/x\n";

describe("categorizeReply", () => {
  it.each<[string, Message, string]>([
    ["a mailer daemon's message", { from: "MAILER-DAEMON@mx.example.org", subject: "Undelivered Mail Returned to Sender", text: "sorry" }, "bounce"],
    ["a non-delivery subject", { subject: "Undeliverable: A quick question", text: "The recipient was not found." }, "bounce"],
    ["Auto-Submitted: auto-replied", { headers: { "Auto-Submitted": "auto-replied" }, text: "I am away until Monday." }, "out_of_office"],
    ["X-Autoreply", { headers: { "X-Autoreply": "yes" }, text: "Thanks for your email." }, "out_of_office"],
    ["Precedence: auto_reply", { headers: { Precedence: "auto_reply" }, text: "Thanks for your email." }, "out_of_office"],
    ["an English out-of-office subject", { subject: "Out of Office: A quick question", text: "Back on 3 December." }, "out_of_office"],
    ["a German one", { subject: "Abwesenheitsnotiz: A quick question", text: "Ich bin bis 3. Dezember nicht im Büro." }, "out_of_office"],
    ["a French one", { subject: "Réponse automatique : A quick question", text: "Je suis absent." }, "out_of_office"],
    ["a Spanish one", { subject: "Respuesta automática: A quick question", text: "Estoy fuera." }, "out_of_office"],
    ["a German holiday subject", { subject: "Im Urlaub: A quick question", text: "Ich bin bis 3. Dezember im Urlaub." }, "out_of_office"],
    ["Outlook's automatic reply", { subject: "Automatic reply: A quick question", text: "I am travelling." }, "out_of_office"],
    // auto-reply.ts's detector decides before the bounce rules: the sender is held, and its thread says so.
    [
      "a mailer daemon's automatic answer",
      { from: "MAILER-DAEMON@mx.example.org", subject: "Returned mail", headers: { "Auto-Submitted": "auto-replied" }, text: "sorry" },
      "out_of_office",
    ],
    [
      "a person answering our out-of-office-sounding subject",
      { subject: "Re: Out of office hours support?", ours: "Out of office hours support?", text: "Who is this?" },
      "needs_reply",
    ],
    ["asking to be removed", { text: "Please remove me from your list." + quote }, "unsubscribe"],
    ["unsubscribe", { text: "unsubscribe" }, "unsubscribe"],
    ["stop emailing", { text: "Stop emailing me, thanks." }, "unsubscribe"],
    ["declining", { text: "Thanks, but we're not interested." + quote }, "not_interested"],
    ["no thanks", { text: "No thanks." }, "not_interested"],
    ["already served", { text: "We already use another vendor for this." }, "not_interested"],
    ["German decline", { text: "Kein Interesse, danke." }, "not_interested"],
    ["a call", { text: "Sure, can you call me on Thursday at 3pm?" + quote }, "meeting"],
    ["a calendar link", { text: "Grab a slot here: https://calendly.com/lee/30min" }, "meeting"],
    ["let's talk", { text: "Let's talk next week." }, "meeting"],
    ["German meeting", { text: "Gerne, schlagen Sie einen Termin vor." }, "meeting"],
    ["interest", { text: "This sounds interesting, tell me more." + quote }, "interested"],
    ["pricing", { text: "What is the pricing for 20 seats?" }, "interested"],
    ["Spanish interest", { text: "Me interesa, gracias." }, "interested"],
    ["a question", { text: "Who gave you my address?" + quote }, "needs_reply"],
    ["words only in the quoted part", { text: "Who is this?" + quote }, "needs_reply"],
    ["a human reply whose subject, ours, mentions a call", { subject: "Re: 15-minute call next week?", text: "Who is this?" }, "needs_reply"],
    ["words that only contain a rule's word", { text: "That was so-called progress; we determine it later." }, "needs_reply"],
  ])("%s → %s", async (_name, message, expected) => {
    expect(await categoryOf(message)).toBe(expected);
  });

  it("reads only the reply's own words: quoted lines, the quoted header and the signature are left out", () => {
    const text = ["Happy to chat.", "> earlier line", "Best,", "-- ", "Lee, call me maybe", "", "-----Original Message-----", "From: Rep"].join("\n");
    expect(replyWords(text)).toBe("Happy to chat.\nBest,");
    expect(replyWords("Ok\n\nFrom: Rep <rep@acme.test>\nSent: Monday\nSubject: unsubscribe")).toBe("Ok\n");
    expect(replyWords(undefined)).toBe("");
  });
});
