import type { SystemMail } from "./send-system-mail";

const escapeHtml = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** A name someone typed, as plain text on one line and short: it must not read as the message's own words. */
const plainName = (value: string) => {
  const line = value.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
};

export type SenderConfirmationInput = { address: string; organizationName: string; link: string; expiresAt: Date };

/**
 * The message that proves a sender address: mailed to the address through the inbox's own SMTP
 * server. The subject names no one; the organization's name appears once, quoted, in the body.
 */
export function senderConfirmationEmail(input: SenderConfirmationInput): SystemMail {
  const organization = plainName(input.organizationName);
  const expires = input.expiresAt.toUTCString();
  const text = [
    `The organization "${organization}" connected ${input.address} as a sender inbox on Mailplatform.`,
    "",
    `Confirm that it may send from this address: ${input.link}`,
    "",
    `The link works once, until ${expires}. If you did not expect this, ignore this email: nothing is sent from this address until it is confirmed.`,
  ].join("\n");
  const e = { organization: escapeHtml(organization), address: escapeHtml(input.address), link: escapeHtml(input.link) };
  const html = `<!doctype html>
<html>
  <body style="font-family: -apple-system, Segoe UI, Helvetica, Arial, sans-serif; color: #111; line-height: 1.5;">
    <p>The organization &ldquo;${e.organization}&rdquo; connected <strong>${e.address}</strong> as a sender inbox on Mailplatform.</p>
    <p><a href="${e.link}" style="display: inline-block; padding: 10px 16px; background: #111; color: #fff; text-decoration: none; border-radius: 6px;">Confirm the sender address</a></p>
    <p style="color: #555; font-size: 13px;">Or open this link: <a href="${e.link}">${e.link}</a><br>It works once, until ${escapeHtml(expires)}. If you did not expect this, ignore this email: nothing is sent from this address until it is confirmed.</p>
  </body>
</html>
`;
  return { to: input.address, subject: "Confirm your sender address", html, text };
}
