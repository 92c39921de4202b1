import { env } from "@/lib/env";
import { signedIds } from "./signed-id";

// The web copy of an email needs no login either: the token is its credential, the email's id
// signed under a key of its own (./signed-id.ts), so changing one character answers 404 and an
// unsubscribe or preference token never opens it.
const tokens = signedIds("view-in-browser-token");

/** `{{view_in_browser_url}}`: the page showing this email as its recipient got it. */
export const viewInBrowserUrl = (emailId: string) => `${env.appUrl}/v/${tokens.sign(emailId)}`;

export const readViewToken = (token: string): string | null => tokens.read(token);
