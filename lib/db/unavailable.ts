/**
 * Whether an error means the database cannot be reached right now (down, restarting, refusing
 * connections, out of connections) rather than anything about the request: such a request is
 * worth retrying, so the API answers 503 with Retry-After instead of 500.
 *
 * The same failure arrives in several wrappings — pg's own error (a socket code or a SQLSTATE of
 * class 08 or 57P0x), Prisma's driver-adapter error (`kind`), Prisma's client error (P1001, …) —
 * so the error and its causes are searched, a few levels deep.
 */
const CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  // admin shutdown, crash shutdown, cannot connect now (starting up), too many connections
  "57P01",
  "57P02",
  "57P03",
  "53300",
  // Prisma: can't reach, timed out, closed the connection, no connection from the pool in time, too many connections
  // (an interactive transaction that waited past its maxWait for a connection is P2028 with its own message, matched below)
  "P1001",
  "P1002",
  "P1008",
  "P1017",
  "P2024",
  "P2037",
]);
const KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
const MESSAGES =
  /connection terminated|connection ended unexpectedly|timeout exceeded when trying to connect|can't reach database server|server closed the connection|the database system is (starting up|shutting down|in recovery)|terminating connection due to administrator command|encountered a connection error|ECONNREFUSED|ECONNRESET|Timed out fetching a new connection|Unable to start a transaction in the given time/i;

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 5) return false;
  const e = error as { code?: unknown; kind?: unknown; message?: unknown; cause?: unknown; meta?: unknown; errors?: unknown };
  if (typeof e.code === "string" && (CODES.has(e.code) || /^08...$/.test(e.code))) return true;
  if (typeof e.kind === "string" && KINDS.has(e.kind)) return true;
  if (typeof e.message === "string" && MESSAGES.test(e.message)) return true;
  const inner = [e.cause, ...(e.meta && typeof e.meta === "object" ? Object.values(e.meta) : []), ...(Array.isArray(e.errors) ? e.errors : [])];
  return inner.some((next) => isDatabaseUnavailable(next, depth + 1));
}
