import type { SystemMail } from "./send-system-mail";

const escapeHtml = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

export type InvitationEmailInput = {
  to: string;
  inviterName: string;
  inviterEmail: string;
  organizationName: string;
  role: string;
  link: string;
  expiresAt: Date;
};

/** The message that carries an invitation link, as HTML and as plain text. */
export function invitationEmail(input: InvitationEmailInput): SystemMail {
  const inviter = input.inviterName.trim() || input.inviterEmail;
  const article = input.role === "admin" ? "an" : "a";
  const expires = input.expiresAt.toUTCString();
  // Names are free text; a line break must not end up splitting the Subject header.
  const subject = `${inviter} invited you to join ${input.organizationName}`.replace(/[\r\n]+/g, " ");
  const text = [
    `${inviter} (${input.inviterEmail}) invited you to join ${input.organizationName} as ${article} ${input.role}.`,
    "",
    `Accept the invitation: ${input.link}`,
    "",
    `The link works until ${expires}. If you did not expect this invitation, ignore this email.`,
  ].join("\n");
  const e = {
    inviter: escapeHtml(inviter),
    inviterEmail: escapeHtml(input.inviterEmail),
    organization: escapeHtml(input.organizationName),
    role: escapeHtml(input.role),
    link: escapeHtml(input.link),
  };
  const html = `<!doctype html>
<html>
  <body style="font-family: -apple-system, Segoe UI, Helvetica, Arial, sans-serif; color: #111; line-height: 1.5;">
    <p><strong>${e.inviter}</strong> (${e.inviterEmail}) invited you to join <strong>${e.organization}</strong> as ${article} ${e.role}.</p>
    <p><a href="${e.link}" style="display: inline-block; padding: 10px 16px; background: #111; color: #fff; text-decoration: none; border-radius: 6px;">Accept the invitation</a></p>
    <p style="color: #555; font-size: 13px;">Or open this link: <a href="${e.link}">${e.link}</a><br>It works until ${escapeHtml(expires)}. If you did not expect this invitation, ignore this email.</p>
  </body>
</html>
`;
  return { to: input.to, subject, html, text };
}
