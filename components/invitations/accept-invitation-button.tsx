"use client";

import { Check } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";
import { ApiError, apiFetch, apiCall } from "@/lib/client/api";

/** Accepts, makes the joined organization the current one, and opens the dashboard. */
export function AcceptInvitationButton({ token, organizationName }: { token: string; organizationName: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const accept = async () => {
    setBusy(true);
    try {
      const result = await apiCall("POST /v1/invitations/{token}/accept", { params: { token: token } });
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
