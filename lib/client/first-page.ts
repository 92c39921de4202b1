/** A list's query as the dashboard sends it (apiCall leaves empty values out). */
export type ListQuery = Record<string, string | number>;

/** The rows a page's server component read for its list (lib/api/page-rows.ts), and the query they answer. */
export type FirstPage<Row> = { query: ListQuery; rows: Row[] };

/**
 * The server's rows for as long as the list asks for that same query and its own answer (which
 * brings the total) has not come: the rows are in the HTML, and no skeleton replaces them while
 * the page starts.
 */
export function firstPageRows<Row>(first: FirstPage<Row> | undefined, query: ListQuery, answered: boolean): Row[] | undefined {
  if (!first || answered) return undefined;
  const keys = Object.keys(query);
  const same = keys.length === Object.keys(first.query).length && keys.every((key) => first.query[key] === query[key]);
  return same ? first.rows : undefined;
}
