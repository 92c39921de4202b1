import { apiFetch, type ListEnvelope } from "@/lib/client/api";

// Pickers need every record of lists the API always pages; 10 pages of 100 is far past any real use.
const PAGE_SIZE = 100;
const MAX_PAGES = 10;

/** Every item of an always-paginated /v1 list, following `after` cursors. */
export async function fetchAllPages<T extends { id: string }>(path: string): Promise<T[]> {
  const items: T[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const envelope = await apiFetch<ListEnvelope<T>>(path, { query: { limit: PAGE_SIZE, after } });
    items.push(...envelope.data);
    if (!envelope.has_more || envelope.data.length === 0) break;
    after = envelope.data[envelope.data.length - 1].id;
  }
  return items;
}
