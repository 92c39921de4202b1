"use client";

import { CircleCheck, MailCheck } from "lucide-react";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import type { ConfirmOutcome } from "@/lib/schemas/inboxes";

const messages: Record<Exclude<ConfirmOutcome["state"], "confirmed">, string> = {
  expired: "This link has expired. Send a new confirmation from the inbox's settings.",
  invalid: "This link no longer works: it was used already, or replaced by a newer one.",
};

/** The one action of the confirmation page, and what came of it. */
export function ConfirmSenderForm({ token, address, confirm }: { token: string; address: string; confirm: (token: string) => Promise<ConfirmOutcome> }) {
  const [outcome, setOutcome] = useState<ConfirmOutcome | null>(null);
  const [pending, startTransition] = useTransition();

  if (outcome?.state === "confirmed") {
    return (
      <p role="status" className="flex items-center justify-center gap-2 text-sm font-medium text-emerald-700">
        <CircleCheck className="size-4" aria-hidden />
        {outcome.address} is confirmed. The inbox can send now.
      </p>
    );
  }
  return (
    <>
      <Button size="lg" className="w-full" loading={pending} onClick={() => startTransition(async () => setOutcome(await confirm(token)))}>
        {!pending && <MailCheck aria-hidden />}
        Confirm {address}
      </Button>
      {outcome && (
        <p role="alert" className="text-sm text-red-600">
          {messages[outcome.state]}
        </p>
      )}
    </>
  );
}
