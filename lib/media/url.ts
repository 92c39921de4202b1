import { env } from "@/lib/env";

/** Where the app serves an image: the unguessable storage key is the whole credential, as for tracking links. */
export const mediaUrl = (storageKey: string) => `${env.appUrl}/m/${storageKey}`;
