"use client";

import { ArrowRight } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";
import { apiFetch } from "@/lib/client/api";

/** For someone who already belongs to the invitation's organization: switch to it and go. */
export function OpenOrganizationButton({ organizationId, organizationName }: { organizationId: string; organizationName: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      size="lg"
      className="w-full"
      loading={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await apiFetch("/api/session/organization", { method: "POST", body: { organization_id: organizationId } });
          router.replace("/");
          router.refresh();
        } catch (error) {
          setBusy(false);
          toast.error(error, "Could not open the organization");
        }
      }}
    >
      Open {organizationName}
      {!busy && <ArrowRight aria-hidden />}
    </Button>
  );
}
