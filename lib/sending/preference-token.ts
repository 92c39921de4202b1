import { env } from "@/lib/env";
import { signedIds } from "./signed-id";

// The preference page needs no login: the token names one contact (decisions.md, "Consent"), under
// a key of its own, so an unsubscribe or tracking token never opens it.
const tokens = signedIds("preference-token");

export const preferenceToken = (contactId: string): string => tokens.sign(contactId);

/** The contact id a token names, or null for anything forged, truncated or malformed. */
export const readPreferenceToken = (token: string): string | null => tokens.read(token);

/** The contact's preference page, `/p/<token>`. */
export const preferencesUrl = (contactId: string): string => `${env.appUrl}/p/${preferenceToken(contactId)}`;
