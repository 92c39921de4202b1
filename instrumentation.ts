import { recordPeerAddresses } from "@/lib/api/client-address";

// Runs once when the server starts, before it answers anything.
export function register() {
  recordPeerAddresses();
}
