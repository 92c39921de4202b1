"use client";

import { ShieldCheck } from "lucide-react";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { canManage, useSessionInfo } from "@/lib/client/session";
import { InvitationsCard } from "./invitations-card";
import { InviteForm } from "./invite-form";
import { MembersCard } from "./members-card";

export function TeamScreen() {
  const { data: session } = useSessionInfo();
  if (!session) return null;
  const organization = session.organizations.find((o) => o.id === session.current_organization_id);
  const manager = canManage(session.role);
  return (
    <>
      <PageHeader title="Team" description={`The people in ${organization?.name ?? "this organization"} and what each of them can do.`} />
      <div className="flex flex-col gap-6">
        {manager ? (
          <InviteForm organizationName={organization?.name ?? "this organization"} />
        ) : (
          <Card className="flex items-start gap-3 px-5 py-4" role="note">
            <ShieldCheck className="mt-0.5 size-5 shrink-0 text-zinc-400" aria-hidden />
            <div className="text-sm">
              <p className="font-medium text-zinc-900">Only owners and admins can invite people</p>
              <p className="mt-0.5 text-zinc-500">
                You are a member of {organization?.name}. To bring in a teammate, ask one of the owners or admins below to send them an invitation.
              </p>
            </div>
          </Card>
        )}
        <MembersCard session={session} />
        {manager && <InvitationsCard />}
      </div>
    </>
  );
}
