import { createHash, randomBytes } from "node:crypto";

/** 32 random bytes in base64url (43 characters): the secret half of every emailed link. */
export const newLinkToken = () => randomBytes(32).toString("base64url");

// Only the hash is stored, so a database leak hands out no working link.
export const hashLinkToken = (token: string) => createHash("sha256").update(token).digest("hex");
