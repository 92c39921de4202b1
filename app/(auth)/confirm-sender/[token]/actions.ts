"use server";

import type { ConfirmOutcome } from "@/lib/schemas/inboxes";
import { confirmSender } from "@/lib/services/inbox-confirmation";

/** The confirmation page's button. No session needed: the token is the proof. */
export async function confirmSenderAction(token: string): Promise<ConfirmOutcome> {
  return confirmSender(token);
}
