// Runs once when the server starts, before it answers anything. Next.js also compiles this file for
// its edge runtime, where node:diagnostics_channel does not exist; NEXT_RUNTIME is a constant it
// sets at build time, not a setting (settings live in lib/env.ts).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { recordPeerAddresses } = await import("@/lib/api/client-address");
  recordPeerAddresses();
}
