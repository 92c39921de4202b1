import { escapeHtml, plainName } from "./plain-name";
import type { SystemMail } from "./send-system-mail";

export type InvitationEmailInput = {
  to: string;
  inviterName: string;
  inviterEmail: string;
  organizationName: string;
  role: string;
  link: string;
  expiresAt: Date;
};

/** The invitation's Subject: fixed words, so no name an attacker typed reaches an inbox list. */
const INVITATION_SUBJECT = "You have been invited to join a team";

/**
 * The message that carries an invitation link, as HTML and as plain text. The names in it are
 * free text chosen by whoever signed up, so they are shown as short plain text only.
 */
export function invitationEmail(input: InvitationEmailInput): SystemMail {
  const inviter = plainName(input.inviterName) || input.inviterEmail;
  const organization = plainName(input.organizationName);
  const article = input.role === "admin" ? "an" : "a";
  const expires = input.expiresAt.toUTCString();
  const text = [
    `${inviter} (${input.inviterEmail}) invited you to join the organization "${organization}" as ${article} ${input.role}.`,
    "",
    `Accept the invitation: ${input.link}`,
    "",
    `The link works until ${expires}. If you did not expect this invitation, ignore this email.`,
  ].join("\n");
  const e = {
    inviter: escapeHtml(inviter),
    inviterEmail: escapeHtml(input.inviterEmail),
    organization: escapeHtml(organization),
    role: escapeHtml(input.role),
    link: escapeHtml(input.link),
  };
  const html = `<!doctype html>
<html>
  <body style="font-family: -apple-system, Segoe UI, Helvetica, Arial, sans-serif; color: #111; line-height: 1.5;">
    <p>${e.inviter} (${e.inviterEmail}) invited you to join the organization “${e.organization}” as ${article} ${e.role}.</p>
    <p><a href="${e.link}" style="display: inline-block; padding: 10px 16px; background: #111; color: #fff; text-decoration: none; border-radius: 6px;">Accept the invitation</a></p>
    <p style="color: #555; font-size: 13px;">Or open this link: <a href="${e.link}">${e.link}</a><br>It works until ${escapeHtml(expires)}. If you did not expect this invitation, ignore this email.</p>
  </body>
</html>
`;
  return { to: input.to, subject: INVITATION_SUBJECT, html, text };
}
