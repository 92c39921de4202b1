"use client";

import { MailCheck } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/form-field";
import { toast } from "@/components/ui/toast";
import { errorMessage, apiCall } from "@/lib/client/api";

export function VerifyEmailButton({ token, callbackUrl }: { token: string; callbackUrl: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const verify = async () => {
    setBusy(true);
    try {
      const result = await apiCall("POST /api/account/verify-email", { body: { token } });
      toast.success("Email address verified", `${result.email} is confirmed.`);
      router.replace(callbackUrl);
      router.refresh();
    } catch (caught) {
      setBusy(false);
      setError(errorMessage(caught));
    }
  };
  return (
    <div className="flex flex-col gap-4">
      <FormError message={error} />
      <Button size="lg" className="w-full" loading={busy} onClick={() => void verify()}>
        {!busy && <MailCheck aria-hidden />}
        Verify email address
      </Button>
    </div>
  );
}
