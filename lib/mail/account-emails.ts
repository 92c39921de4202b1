import { escapeHtml } from "./plain-name";
import type { SystemMail } from "./send-system-mail";

const button = (link: string, label: string) =>
  `<p><a href="${escapeHtml(link)}" style="display: inline-block; padding: 10px 16px; background: #111; color: #fff; text-decoration: none; border-radius: 6px;">${escapeHtml(label)}</a></p>`;

function message(to: string, subject: string, paragraphs: string[], action: { link: string; label: string } | null, footer: string): SystemMail {
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.link}`] : []), footer].join("\n\n");
  const html = `<!doctype html>
<html>
  <body style="font-family: -apple-system, Segoe UI, Helvetica, Arial, sans-serif; color: #111; line-height: 1.5;">
    ${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("\n    ")}
    ${action ? `${button(action.link, action.label)}\n    <p style="color: #555; font-size: 13px;">Or open this link: <a href="${escapeHtml(action.link)}">${escapeHtml(action.link)}</a></p>` : ""}
    <p style="color: #555; font-size: 13px;">${escapeHtml(footer)}</p>
  </body>
</html>
`;
  return { to, subject, html, text };
}

/** Mailed at sign-up: the link proves the address. */
export const verificationEmail = (to: string, link: string) =>
  message(
    to,
    "Verify your email address",
    ["Confirm that this address is yours to finish setting up your account. Until then you cannot invite people, join an organization or create API keys."],
    { link, label: "Verify email address" },
    "The link works for 24 hours. If you did not create an account, ignore this email.",
  );

/** Mailed instead when someone signs up with an address that already has an account. */
export const alreadyRegisteredEmail = (to: string, signInLink: string, resetLink: string) =>
  message(
    to,
    "Someone tried to sign up with your address",
    [
      "Someone (perhaps you) tried to create an account with this email address, but it already has one. No new account was made.",
      `If it was you, sign in: ${signInLink}`,
      "Forgot your password? Reset it with the link below.",
    ],
    { link: resetLink, label: "Reset your password" },
    "If it was not you, you can ignore this email; your account is unchanged.",
  );

/** Mailed on request from the sign-in page: the link sets a new password once. */
export const passwordResetEmail = (to: string, link: string) =>
  message(
    to,
    "Reset your password",
    ["Someone (perhaps you) asked to reset the password of the account with this address."],
    { link, label: "Choose a new password" },
    "The link works once, for 1 hour. Resetting signs you out everywhere. If you did not ask for it, ignore this email; your password is unchanged.",
  );
