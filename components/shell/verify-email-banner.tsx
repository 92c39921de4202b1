"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { toast } from "@/components/ui/toast";
import { apiFetch } from "@/lib/client/api";

/** Until the address is proven, inviting, joining and API keys are refused: this says why, and resends the link. */
export function VerifyEmailBanner({ email }: { email: string }) {
  const [busy, setBusy] = useState(false);
  const resend = async () => {
    setBusy(true);
    try {
      await apiFetch("/api/account/verify-email/resend", { method: "POST" });
      toast.success("Verification email sent", `Open the link we sent to ${email}.`);
    } catch (error) {
      toast.error(error, "Could not send the verification email");
    } finally {
      setBusy(false);
    }
  };
  return (
    <Callout
      tone="warning"
      title="Verify your email address"
      className="mb-6"
      action={
        <Button variant="secondary" size="sm" loading={busy} onClick={() => void resend()}>
          Resend verification
        </Button>
      }
    >
      We sent a link to {email}. Until you open it you cannot invite people, join an organization or create API keys.
    </Callout>
  );
}
