import type { OAuthProvider } from "@/lib/generated/prisma/enums";

type Server = { host: string; port: number; secure: boolean };

/**
 * What the platform asks each provider for and where its mailboxes are (decisions.md, "Mailbox
 * authorization"). Pure data: the dashboard shows the labels, the server uses the rest.
 */
export const oauthProviderTable: Record<
  OAuthProvider,
  { label: string; scope: string; authorizationParams: Record<string, string>; smtp: Server; imap: Server }
> = {
  google: {
    label: "Google",
    scope: "openid email https://mail.google.com/",
    // Google gives a refresh token for access_type=offline, and again on a reconnect only with consent shown.
    authorizationParams: { access_type: "offline", prompt: "consent" },
    smtp: { host: "smtp.gmail.com", port: 465, secure: true },
    imap: { host: "imap.gmail.com", port: 993, secure: true },
  },
  microsoft: {
    label: "Microsoft",
    scope: "openid email offline_access https://outlook.office.com/SMTP.Send https://outlook.office.com/IMAP.AccessAsUser.All",
    authorizationParams: { prompt: "select_account" },
    smtp: { host: "smtp.office365.com", port: 587, secure: false },
    imap: { host: "outlook.office365.com", port: 993, secure: true },
  },
};

export const oauthProviderNames = Object.keys(oauthProviderTable) as OAuthProvider[];
