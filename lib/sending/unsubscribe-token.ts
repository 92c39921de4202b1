import { env } from "@/lib/env";
import { signedIds } from "./signed-id";

// Unsubscribing needs no login: the token names one email, from which the contact follows.
const tokens = signedIds("unsubscribe-token");

export const unsubscribeToken = (emailId: string): string => tokens.sign(emailId);

/** The email id a token names, or null for anything forged, truncated or malformed. */
export const readUnsubscribeToken = (token: string): string | null => tokens.read(token);

/** The page a person opens from the link in the body, and the RFC 8058 one-click endpoint named in List-Unsubscribe. */
export function unsubscribeUrls(emailId: string): { page: string; oneClick: string } {
  const page = `${env.appUrl}/u/${unsubscribeToken(emailId)}`;
  return { page, oneClick: `${page}/one-click` };
}
