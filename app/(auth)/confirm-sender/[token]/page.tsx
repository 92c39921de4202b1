import { CalendarClock, Link2Off, MailCheck } from "lucide-react";
import type { Metadata } from "next";
import { InvitationNotice } from "@/components/invitations/invitation-notice";
import { ConfirmSenderForm } from "@/components/inboxes/confirm-sender-form";
import { describeSenderConfirmation } from "@/lib/services/inbox-confirmation";
import { confirmSenderAction } from "./actions";

export const metadata: Metadata = { title: "Confirm sender address", referrer: "no-referrer" };

type Props = { params: Promise<{ token: string }> };

/**
 * Where the link mailed to an inbox's from address leads. Opening it confirms nothing (mail
 * scanners open links); the button does, for whoever reads that mailbox, signed in or not.
 */
export default async function ConfirmSenderPage({ params }: Props) {
  const { token } = await params;
  const confirmation = await describeSenderConfirmation(token);

  if (!confirmation) {
    return (
      <InvitationNotice icon={Link2Off} title="This confirmation link does not work">
        <p>
          It may be incomplete, already used, or replaced by a newer one; a link also stops working when the inbox&rsquo;s address or server changes. Send a new
          confirmation from the inbox&rsquo;s settings.
        </p>
      </InvitationNotice>
    );
  }
  if (confirmation.state === "expired") {
    return (
      <InvitationNotice icon={CalendarClock} tone="warning" title="This confirmation link has expired">
        <p>Links work for 24 hours. Send a new confirmation for {confirmation.address} from the inbox&rsquo;s settings.</p>
      </InvitationNotice>
    );
  }
  return (
    <InvitationNotice
      icon={MailCheck}
      title="Confirm your sender address"
      actions={<ConfirmSenderForm token={token} address={confirmation.address} confirm={confirmSenderAction} />}
    >
      <p>
        The organization &ldquo;{confirmation.organizationName}&rdquo; wants to send email as{" "}
        <strong className="font-medium text-zinc-900">{confirmation.address}</strong> through its inbox &ldquo;{confirmation.inboxName}&rdquo;.
      </p>
      <p>Confirm only if you expected this. Nothing is sent from this address until it is confirmed.</p>
    </InvitationNotice>
  );
}
