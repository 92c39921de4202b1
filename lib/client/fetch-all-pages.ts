import { apiCall } from "@/lib/client/api";
import type { ItemOf, ListRoute } from "@/lib/client/use-cursor-list";
import type { ListEnvelope } from "@/lib/schemas/pagination";

// Pickers need every record of lists the API always pages; 10 pages of 100 is far past any real use.
const PAGE_SIZE = 100;
const MAX_PAGES = 10;

/** Every item of an always-paginated /v1 list, following `after` cursors. */
export async function fetchAllPages<R extends ListRoute>(route: R): Promise<ItemOf<R>[]> {
  const items: ItemOf<R>[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const envelope = (await apiCall(route, { query: { limit: PAGE_SIZE, after } })) as ListEnvelope<ItemOf<R>>;
    items.push(...envelope.data);
    if (!envelope.has_more || envelope.data.length === 0) break;
    after = envelope.data[envelope.data.length - 1].id;
  }
  return items;
}
