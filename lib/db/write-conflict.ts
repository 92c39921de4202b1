/**
 * PostgreSQL's answer when two transactions waited for each other (40P01, deadlock detected) or a
 * serializable one met a concurrent change (40001): the statement was sound, the timing was not,
 * and the documented remedy is to run the transaction again. Prisma reports both as P2034 from its
 * own queries; from a raw query in a transaction as P2010 whose driver-adapter cause carries
 * PostgreSQL's code as `originalCode` (checked against a real deadlock in the test).
 */
const CODES = new Set(["P2034", "40P01", "40001"]);

export function isWriteConflict(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 4) return false;
  const e = error as { code?: unknown; originalCode?: unknown; cause?: unknown; meta?: { code?: unknown; driverAdapterError?: unknown } };
  if (typeof e.code === "string" && CODES.has(e.code)) return true;
  if (typeof e.originalCode === "string" && CODES.has(e.originalCode)) return true;
  if (typeof e.meta?.code === "string" && CODES.has(e.meta.code)) return true;
  return [e.cause, e.meta?.driverAdapterError].some((inner) => isWriteConflict(inner, depth + 1));
}

/** Runs a transaction, and again (up to `attempts` times in all, after a short random pause) when it lost a deadlock. */
export async function retryOnWriteConflict<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= attempts || !isWriteConflict(error)) throw error;
      // Apart, so the two transactions do not meet again in the same order.
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 80 * attempt));
    }
  }
}
