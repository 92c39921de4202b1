import type { CursorParams } from "@/lib/schemas/pagination";
import { PaginationError } from "@/lib/domain/errors";

export type { CursorParams, ListEnvelope } from "@/lib/schemas/pagination";

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reads a page size; anything but an integer from 1 to 100 is the 422 pagination error. */
export function parseLimit(raw: string | null): number | undefined {
  if (raw === null) return undefined;
  if (!/^\d+$/.test(raw.trim())) throw new PaginationError("limit must be an integer from 1 to 100");
  const value = Number(raw);
  if (value < 1 || value > 100) throw new PaginationError("limit must be an integer from 1 to 100");
  return value;
}

export function parseNonNegative(name: string, raw: string | null, min = 0): number | undefined {
  if (raw === null) return undefined;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) {
    throw new PaginationError(`${name} must be an integer of at least ${min}`);
  }
  return Number(raw);
}

/** Cursor parameters of an always-paginated list (default page size 20); errors are the 422 body. */
export function parseCursorParams(search: URLSearchParams): CursorParams {
  return readCursorParams(search, 20);
}

/** Cursor parameters of an optionally paginated list: without `limit`, every item. */
export function parseOptionalCursorParams(search: URLSearchParams): CursorParams {
  return readCursorParams(search, undefined);
}

function readCursorParams(search: URLSearchParams, defaultLimit: number | undefined): CursorParams {
  const after = search.get("after");
  const before = search.get("before");
  if (after !== null && before !== null) throw new PaginationError("after and before cannot be combined");
  for (const [name, value] of [
    ["after", after],
    ["before", before],
  ] as const) {
    if (value !== null && !uuidPattern.test(value)) throw new PaginationError(`${name} must be a valid id (UUID)`);
  }
  return { limit: parseLimit(search.get("limit")) ?? defaultLimit, after: after ?? undefined, before: before ?? undefined };
}
