import { createHash } from "node:crypto";

/** sha256 of where a report arrived and its bytes: the same report delivered twice is stored once. */
export const reportFingerprint = (recipient: string, raw: Buffer) =>
  createHash("sha256").update(recipient.toLowerCase()).update("\0").update(raw).digest("hex");
