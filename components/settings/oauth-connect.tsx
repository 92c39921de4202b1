"use client";

import { KeyRound } from "lucide-react";
import { useSearchParams } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";

/** A provider the operator configured (OAUTH_<PROVIDER>_CLIENT_ID and _SECRET), as the settings page hands it down. */
export type OAuthProviderOption = { provider: "google" | "microsoft"; label: string };

export const oauthStartUrl = (provider: string, params: Record<string, string> = {}) =>
  `/api/inboxes/oauth/${provider}/start${Object.keys(params).length ? `?${new URLSearchParams(params)}` : ""}`;

/** "Connect Google" / "Connect Microsoft": a full-page visit, so the provider's consent screen replaces the dashboard and sends the browser back. */
export function OAuthConnectButtons({ providers }: { providers: OAuthProviderOption[] }) {
  return providers.map((p) => (
    <Button key={p.provider} variant="secondary" asChild>
      <a href={oauthStartUrl(p.provider)}>
        <KeyRound aria-hidden />
        Connect {p.label}
      </a>
    </Button>
  ));
}

const OAUTH_ERRORS: Record<string, string> = {
  access_denied: "The consent was declined at the provider: nothing was connected.",
  exchange_failed: "The provider's answer could not be verified: nothing was connected. Try again.",
  different_mailbox: "You signed in to a different mailbox than the inbox's: reconnect it with the same account.",
};

/** What came back from the provider (the callback's redirect says so in the URL). */
export function OAuthResultNote({ providers, canConnect }: { providers: OAuthProviderOption[]; canConnect: boolean }) {
  const search = useSearchParams();
  const error = search.get("oauth_error");
  return (
    <>
      {error && (
        <Callout tone="danger" title="The mailbox was not connected">
          {OAUTH_ERRORS[error] ?? `The provider answered: ${error}.`}
        </Callout>
      )}
      {canConnect && providers.length === 0 && (
        <Callout tone="info" title="Google Workspace and Microsoft 365 mailboxes">
          They connect by OAuth (Microsoft has turned password sign-in off): once the operator sets OAUTH_GOOGLE_CLIENT_ID and OAUTH_GOOGLE_CLIENT_SECRET, or
          the same for MICROSOFT (see the README, &ldquo;Connecting Gmail and Microsoft 365&rdquo;), Connect buttons appear here. Other mailboxes connect with
          their SMTP and IMAP passwords.
        </Callout>
      )}
    </>
  );
}
