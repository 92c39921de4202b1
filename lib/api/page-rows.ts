import { headers } from "next/headers";
import type { z } from "zod";
import type { FirstPage, ListQuery } from "@/lib/client/first-page";
import type { AuthLevel } from "@/lib/contracts/contract";
import type { OrgContext } from "@/lib/domain/context";
import { AppError } from "@/lib/domain/errors";
import { errorField, log } from "@/lib/log";
import { resolveCaller } from "./credentials";
import { assertKeyMayCall } from "./key-permissions";

type ListContract<Q extends z.ZodType> = { method: string; path: string; auth: AuthLevel; query?: Q };

/**
 * The first rows of a dashboard list, read by the page's server component so that they come with
 * the HTML: at a million rows the list's own request counts its total for 100-350 ms, and the
 * page's JavaScript loads and starts before it is even sent (the first rows took 1.0-1.6 s to show,
 * benchmark of 25 Nov). Read as the page's signed-in user would through the operation: the same
 * session cookie and organization (resolveCaller), role and query schema; answered in the wire
 * format (JSON, checked by the response's row schema). Undefined whenever that call would not
 * succeed — no session, no organization, a query the schema refuses, a failed read: the list then
 * asks the API itself, as before, and shows why.
 */
export async function pageRows<Q extends z.ZodType, R extends z.ZodType<unknown[]>>(
  contract: ListContract<Q>,
  query: ListQuery,
  rows: R,
  read: (ctx: OrgContext, query: z.output<Q>) => Promise<unknown>,
): Promise<FirstPage<z.output<R>[number]> | undefined> {
  try {
    const { org } = await resolveCaller(new Request("http://dashboard.invalid/", { headers: await headers() }));
    if (!org || (contract.auth === "admin" && org.role === "member")) return undefined;
    // A page requested with a sending key's Authorization header shows no rows either.
    assertKeyMayCall(org, contract);
    // As apiCall sends it: empty values left out, every value a string.
    const sent = Object.fromEntries(Object.entries(query).flatMap(([key, value]) => (value === "" ? [] : [[key, String(value)]])));
    const parsed = contract.query?.safeParse(sent);
    if (!parsed?.success) return undefined;
    const wire = rows.safeParse(JSON.parse(JSON.stringify(await read(org, parsed.data))));
    return wire.success ? { query, rows: wire.data } : undefined;
  } catch (error) {
    // Signed out: the layout sends the visitor to the sign-in page.
    if (error instanceof AppError && (error.code === "UNAUTHORIZED" || error.code === "FORBIDDEN")) return undefined;
    log.warn({ err: errorField(error) }, "[dashboard] the first rows of a list were not read with the page; the list reads them itself");
    return undefined;
  }
}
