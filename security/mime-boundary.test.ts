import { generateKeyPairSync } from "node:crypto";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealSecret } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db";
import { startBroadcast } from "@/lib/sending/fan-out";
import { mimeMessage } from "@/lib/sending/mime-message";
import { createSender } from "@/lib/sending/sender";
import { createTestOrg } from "@/lib/testing/api";
import { seedSegment, verifiedDomain } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";

// A contact's own data (a name, a metadata value a sign-up form filled) is written into the message.
// If it can contain the multipart boundary, it can end the real part and add one of its own, inside
// a message the organization's DKIM key signs. The attacker sees the boundary of every email it
// receives, so a boundary that can be guessed from an earlier one is no boundary.

const boundaryOf = (raw: string) => /boundary="([^"]+)"/.exec(raw)?.[1] ?? "";

/** The attacker's best guess at the next boundary from one it received: the counter's next, or the same one. */
function guessNext(seen: string): string {
  const counter = /^(.*-)(\d+)$/.exec(seen);
  return counter ? `${counter[1]}${Number(counter[2]) + 1}` : seen;
}

const injected = (boundary: string) =>
  [
    "Thanks!",
    `--${boundary}`,
    "Content-Type: text/html; charset=utf-8",
    "",
    "<p>Your account is locked. <a href='https://evil.example/login'>Sign in here</a></p>",
    `--${boundary}--`,
    "TAIL-OF-THE-CONTACT-DATA",
  ].join("\n");

describe("MIME boundary", () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(() => sink.close());

  it("contact data holding a would-be boundary stays inside its part of a DKIM-signed broadcast", async () => {
    const org = await createTestOrg("Newsletter");
    const domain = await verifiedDomain(org.organizationId, "news.example");
    const { privateKey } = generateKeyPairSync("rsa", {
      modulusLength: 1024,
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    });
    await db.domain.update({
      where: { id: domain.id },
      data: { dkim_selector: "mp1", dkim_private_key_encrypted: sealSecret(privateKey), dkim_verified_at: new Date() },
    });

    // An email the attacker received a moment ago shows the boundaries in use.
    const seen = boundaryOf(
      mimeMessage({
        from: { name: "", address: "a@news.example" },
        to: "attacker@example.test",
        subject: "s",
        messageId: "<m@x>",
        text: "t",
        html: "<p>t</p>",
      }).raw.toString(),
    );
    const guess = guessNext(seen);
    const { segmentId } = await seedSegment(org.organizationId, [{ email: "attacker@example.test", metadata: { note: injected(guess) } }]);
    const broadcast = await db.broadcast.create({
      data: {
        organization_id: org.organizationId,
        name: "News",
        subject: "News",
        from_email: "hello@news.example",
        html_content: "<p>Your note: {{note}}</p>",
        text_content: "Your note: {{note}}",
        segment_id: segmentId,
        sending_speed: "instant",
        status: "scheduled",
        scheduled_at: new Date(),
      },
    });
    expect(await startBroadcast(broadcast.id)).toBe("started");
    const sender = createSender({ organizationId: org.organizationId, relayUrl: `smtp://${sink.host}:${sink.port}` });
    try {
      await sender.runOnce();
    } finally {
      sender.close();
    }
    const mail = sink.messages.find((m) => m.envelopeTo.includes("attacker@example.test"));
    expect(mail).toBeDefined();
    const raw = mail!.raw.toString("utf8");
    expect(raw).toMatch(/^DKIM-Signature:/m);

    const boundary = boundaryOf(raw);
    expect(boundary).not.toBe(guess);
    // Exactly the two parts the platform wrote: the delimiter opens two parts and closes once.
    expect(raw.split(`\r\n--${boundary}\r\n`)).toHaveLength(3);
    expect(raw.split(`\r\n--${boundary}--`)).toHaveLength(2);
    const parsed = await simpleParser(mail!.raw);
    expect(parsed.attachments).toHaveLength(0);
    expect(parsed.text).toContain("TAIL-OF-THE-CONTACT-DATA");
    expect(parsed.text).toContain("Sign in here");
    // The HTML part is ours: the note is text in it, escaped, not markup.
    expect(parsed.html).not.toContain("<a href='https://evil.example/login'>");
    expect(parsed.html).toContain("TAIL-OF-THE-CONTACT-DATA");
  });

  it("draws the next boundary afresh: one message's boundary says nothing of the next", () => {
    const input = { from: { name: "", address: "a@news.example" }, to: "b@example.test", subject: "s", messageId: "<m@x>", text: "t", html: "<p>t</p>" };
    const boundaries = Array.from({ length: 50 }, () => boundaryOf(mimeMessage(input).raw.toString()));
    expect(new Set(boundaries).size).toBe(50);
    for (let i = 1; i < boundaries.length; i++) expect(boundaries[i]).not.toBe(guessNext(boundaries[i - 1]));
  });
});
