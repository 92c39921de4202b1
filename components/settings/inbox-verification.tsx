"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Send } from "lucide-react";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toast";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import type { Inbox } from "@/lib/client/resources/inboxes";

const verifiedTitle = {
  domain: "Its address is at a verified domain of the organization.",
  confirmation: "Its address was confirmed through the link mailed to it.",
};

/**
 * Whether the inbox may send, and for one that may not, the way to prove its address: a link
 * mailed to it through the inbox's own SMTP server.
 */
export function InboxVerification({ inbox }: { inbox: Inbox }) {
  const queryClient = useQueryClient();
  const [sending, setSending] = useState(false);
  const { verification } = inbox;

  if (verification.status === "verified") {
    return (
      <Badge tone="success" title={verification.method ? verifiedTitle[verification.method] : undefined}>
        Verified
      </Badge>
    );
  }

  const send = async () => {
    setSending(true);
    try {
      await apiCall("POST /v1/inboxes/{id}/send-confirmation", { params: { id: inbox.id } });
      toast.success(`Confirmation sent to ${inbox.from_email}`, "Follow the link in it to let this inbox send. It works for 24 hours.");
      await queryClient.invalidateQueries({ queryKey: queryKeys.inboxes.all() });
    } catch (error) {
      toast.error(error, "Could not send the confirmation");
    } finally {
      setSending(false);
    }
  };
  const pending = verification.status === "pending";
  return (
    <span className="inline-flex items-center gap-2">
      <Badge tone="warning" title="It sends nothing until its from address is confirmed, or is at a verified domain.">
        {pending ? "Confirmation sent" : "Unverified"}
      </Badge>
      <Button variant="secondary" size="sm" loading={sending} onClick={() => void send()}>
        {!sending && <Send aria-hidden />}
        {pending ? "Send again" : "Send confirmation"}
      </Button>
    </span>
  );
}
