"use client";

import { Check } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";
import { ApiError, apiFetch } from "@/lib/client/api";

type Accepted = { success: boolean; organization_id: string; role: string };

/** Accepts, makes the joined organization the current one, and opens the dashboard. */
export function AcceptInvitationButton({ token, organizationName }: { token: string; organizationName: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const accept = async () => {
    setBusy(true);
    try {
      const result = await apiFetch<Accepted>(`/v1/invitations/${encodeURIComponent(token)}/accept`, { method: "POST" });
      await apiFetch("/api/session/organization", { method: "POST", body: { organization_id: result.organization_id } });
      toast.success(`Welcome to ${organizationName}`, `You joined as ${result.role === "admin" ? "an admin" : "a member"}.`);
      router.replace("/");
      router.refresh();
    } catch (error) {
      setBusy(false);
      toast.error(error, "Could not accept the invitation");
      // The invitation changed meanwhile (expired, cancelled, accepted): show its current state.
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) router.refresh();
    }
  };
  return (
    <Button size="lg" className="w-full" loading={busy} onClick={() => void accept()}>
      {!busy && <Check aria-hidden />}
      Accept invitation
    </Button>
  );
}
