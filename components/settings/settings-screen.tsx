"use client";

import { Building2, Globe, Inbox, KeyRound, Palette, ScrollText, SlidersHorizontal } from "lucide-react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { PageHeader } from "@/components/ui/page-header";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { canManage, useSessionInfo } from "@/lib/client/session";
import { ApiKeysSection } from "./api-keys-section";
import { AuditLogSection } from "./audit-log-section";
import { BrandSection } from "./brand-section";
import { DomainsSection } from "./domains-section";
import { InboxesSection } from "./inboxes-section";
import type { OAuthProviderOption } from "./oauth-connect";
import { OrganizationSection } from "./organization-section";
import { PropertiesSection } from "./properties-section";

const tabs = ["organization", "brand", "api-keys", "domains", "inboxes", "properties", "audit-log"] as const;
type Tab = (typeof tabs)[number];

export function SettingsScreen({ oauthProviders = [] }: { oauthProviders?: OAuthProviderOption[] }) {
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const requested = search.get("tab");
  const { data: session } = useSessionInfo();
  const showAuditLog = canManage(session?.role);
  const tab: Tab = tabs.includes(requested as Tab) ? (requested as Tab) : "organization";
  // The tab lives in the URL so it can be linked to and survives a reload.
  const select = (value: string) => router.replace(`${pathname}?tab=${value}`, { scroll: false });
  return (
    <>
      <PageHeader
        title="Settings"
        description="The organization, its brand, API access, sending domains, connected inboxes, contact properties and the audit log."
      />
      <Tabs value={tab} onValueChange={select}>
        <TabsList>
          <TabsTrigger value="organization">
            <Building2 aria-hidden />
            Organization
          </TabsTrigger>
          <TabsTrigger value="brand">
            <Palette aria-hidden />
            Brand
          </TabsTrigger>
          <TabsTrigger value="api-keys">
            <KeyRound aria-hidden />
            API keys
          </TabsTrigger>
          <TabsTrigger value="domains">
            <Globe aria-hidden />
            Domains
          </TabsTrigger>
          <TabsTrigger value="inboxes">
            <Inbox aria-hidden />
            Inboxes
          </TabsTrigger>
          <TabsTrigger value="properties">
            <SlidersHorizontal aria-hidden />
            Properties
          </TabsTrigger>
          {showAuditLog && (
            <TabsTrigger value="audit-log">
              <ScrollText aria-hidden />
              Audit log
            </TabsTrigger>
          )}
        </TabsList>
        <TabsContent value="organization">
          <OrganizationSection />
        </TabsContent>
        <TabsContent value="brand">
          <BrandSection />
        </TabsContent>
        <TabsContent value="api-keys">
          <ApiKeysSection />
        </TabsContent>
        <TabsContent value="domains">
          <DomainsSection />
        </TabsContent>
        <TabsContent value="inboxes">
          <InboxesSection oauthProviders={oauthProviders} />
        </TabsContent>
        <TabsContent value="properties">
          <PropertiesSection />
        </TabsContent>
        {showAuditLog && (
          <TabsContent value="audit-log">
            <AuditLogSection />
          </TabsContent>
        )}
      </Tabs>
    </>
  );
}
