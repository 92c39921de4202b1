import type { Metadata } from "next";
import { Suspense } from "react";
import { SettingsScreen } from "@/components/settings/settings-screen";
import { configuredProviders } from "@/lib/oauth/providers";
import { oauthProviderTable } from "@/lib/oauth/provider-table";

export const metadata: Metadata = { title: "Settings" };

export default function SettingsPage() {
  // Which "Connect" buttons to show: the providers the operator configured (lib/env.ts).
  const oauthProviders = configuredProviders().map((provider) => ({ provider, label: oauthProviderTable[provider].label }));
  return (
    <Suspense>
      <SettingsScreen oauthProviders={oauthProviders} />
    </Suspense>
  );
}
