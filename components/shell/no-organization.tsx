"use client";

import { Building2, LogOut, Plus } from "lucide-react";
import { signOut } from "next-auth/react";
import dynamic from "next/dynamic";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Logo } from "./logo";

// The dialog brings the form library and zod, which the dashboard layout would otherwise load on every page.
const CreateOrganizationDialog = dynamic(() => import("./create-organization-dialog").then((m) => m.CreateOrganizationDialog), { ssr: false });

/** A signed-in user who belongs to no organization: create one, or wait for an invitation. */
export function NoOrganization({ user }: { user: { email: string } }) {
  const [creating, setCreating] = useState(false);
  const router = useRouter();
  return (
    <div className="flex min-h-screen flex-col items-center justify-center px-4 py-12">
      <Logo className="mb-8" />
      <Card className="w-full max-w-md">
        <EmptyState
          icon={Building2}
          title="You are not in an organization yet"
          action={
            <>
              <Button onClick={() => setCreating(true)}>
                <Plus aria-hidden />
                Create organization
              </Button>
              <Button variant="secondary" onClick={() => void signOut({ callbackUrl: "/sign-in" })}>
                <LogOut aria-hidden />
                Sign out
              </Button>
            </>
          }
        >
          Create your own organization, or ask a teammate to invite <span className="font-medium text-zinc-700">{user.email}</span> and open the link in their
          email.
        </EmptyState>
      </Card>
      <CreateOrganizationDialog open={creating} onOpenChange={setCreating} onCreated={() => router.refresh()} />
    </div>
  );
}
