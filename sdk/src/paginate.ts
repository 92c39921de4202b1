import type { Client } from "openapi-fetch";
import { unwrap } from "./errors";
import type { paths } from "./generated/schema";

type Json<R> = R extends { content: { "application/json": infer J } } ? J : never;
type GetAnswer<P extends keyof paths> = paths[P] extends { get: { responses: { 200: infer R } } } ? Json<R> : never;
type GetParams<P extends keyof paths> = paths[P] extends { get: { parameters: infer Params } } ? Params : never;

/** The paths whose GET answers a cursor list, `{ object: "list", has_more, data }`. */
export type CursorListPath = {
  [P in keyof paths]: GetAnswer<P> extends { object: "list"; has_more: boolean; data: unknown[] } ? P : never;
}[keyof paths];

/** What a cursor list holds: `Template` for `/v1/templates`. */
export type ListItem<P extends CursorListPath> = GetAnswer<P> extends { data: (infer T)[] } ? T : never;

/** The parameters of a list: its path parameters and filters; paging is the iterator's. */
export type ListParams<P extends CursorListPath> = {
  path?: GetParams<P> extends { path: infer Path } ? Path : never;
  query?: Omit<NonNullable<GetParams<P> extends { query?: infer Q } ? Q : never>, "after" | "before">;
};

const PAGE_SIZE = 100;

/**
 * Every item of a cursor list, newest first, one page of 100 at a time (`after` the last item of
 * the page before) as the loop asks for them: `for await (const t of paginate(client, "/v1/templates"))`.
 */
export async function* paginate<P extends CursorListPath>(client: Client<paths>, path: P, params: ListParams<P> = {}): AsyncGenerator<ListItem<P>> {
  // The path is one of many, each with its own parameter types; the call is checked by CursorListPath instead.
  const get = client.GET as unknown as (path: string, init: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  let after: string | undefined;
  for (;;) {
    const query = { limit: PAGE_SIZE, ...params.query, ...(after === undefined ? {} : { after }) };
    // Items are records (no promises), and every cursor list pages by their ids.
    const page = unwrap(await get(path, { params: { ...params, query } })) as { has_more: boolean; data: Awaited<ListItem<P>>[] };
    yield* page.data;
    if (!page.has_more || page.data.length === 0) return;
    after = (page.data[page.data.length - 1] as { id: string }).id;
  }
}
