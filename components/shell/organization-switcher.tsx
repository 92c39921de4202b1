"use client";

import { Check, ChevronsUpDown, Plus } from "lucide-react";
import dynamic from "next/dynamic";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { focusRing } from "@/components/ui/focus-ring";
import { toast } from "@/components/ui/toast";
import { apiFetch } from "@/lib/client/api";
import { cn } from "@/lib/client/cn";
import type { SessionInfo } from "@/lib/client/session";
import { OrganizationAvatar } from "./organization-avatar";
import { useAfterOrganizationChange } from "./use-switch-organization";

// The dialog brings the form library and zod; every dashboard page carries the switcher, so it loads on first use.
const CreateOrganizationDialog = dynamic(() => import("./create-organization-dialog").then((m) => m.CreateOrganizationDialog), { ssr: false });

export function OrganizationSwitcher({ session }: { session: SessionInfo }) {
  const [creating, setCreating] = useState(false);
  const afterChange = useAfterOrganizationChange();
  const current = session.organizations.find((o) => o.id === session.current_organization_id);

  const switchTo = async (organizationId: string) => {
    if (organizationId === session.current_organization_id) return;
    try {
      await apiFetch("/api/session/organization", { method: "POST", body: { organization_id: organizationId } });
      const target = session.organizations.find((o) => o.id === organizationId);
      toast.success(`Switched to ${target?.name ?? "organization"}`);
      await afterChange();
    } catch (error) {
      toast.error(error, "Could not switch organization");
    }
  };

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger
          className={cn(
            "flex h-9 max-w-80 min-w-0 items-center gap-2 rounded-md px-2 text-left transition-colors hover:bg-zinc-100 data-[state=open]:bg-zinc-100",
            focusRing,
          )}
          aria-label={`Organization: ${current?.name ?? "none"}. Switch organization`}
        >
          {current && <OrganizationAvatar name={current.name} />}
          <span className="min-w-0 truncate text-sm font-medium text-zinc-900">{current?.name}</span>
          {current && (
            <Badge tone="neutral" className="hidden capitalize sm:inline-flex">
              {current.role}
            </Badge>
          )}
          <ChevronsUpDown className="size-4 shrink-0 text-zinc-400" aria-hidden />
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start" className="w-72">
          <DropdownMenuLabel>Organizations</DropdownMenuLabel>
          {session.organizations.map((org) => (
            <DropdownMenuItem key={org.id} onSelect={() => void switchTo(org.id)} className="gap-2.5">
              <OrganizationAvatar name={org.name} />
              <span className="min-w-0 flex-1 truncate">{org.name}</span>
              <span className="text-xs text-zinc-500 capitalize">{org.role}</span>
              <Check className={cn("size-4 text-brand-600", org.id !== session.current_organization_id && "invisible")} aria-hidden />
            </DropdownMenuItem>
          ))}
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => setCreating(true)}>
            <Plus aria-hidden />
            Create organization
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      {creating && <CreateOrganizationDialog open={creating} onOpenChange={setCreating} onCreated={afterChange} />}
    </>
  );
}
