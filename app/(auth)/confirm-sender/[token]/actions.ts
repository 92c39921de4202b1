"use server";

import { confirmSender, type ConfirmOutcome } from "@/lib/services/inbox-confirmation";

/** The confirmation page's button. No session needed: the token is the proof. */
export async function confirmSenderAction(token: string): Promise<ConfirmOutcome> {
  return confirmSender(token);
}
