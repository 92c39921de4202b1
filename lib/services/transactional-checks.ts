import type { OrgContext } from "@/lib/domain/context";
import { AppError } from "@/lib/domain/errors";
import { normalizeEmail } from "@/lib/schemas/common";
import { domainOf } from "@/lib/domain/addresses";

/** One email's recipients, as the request named them (`to` as a string or an array). */
export type Recipients = { to: string[]; toGivenAsList: boolean; cc: string[]; bcc: string[] };

export function recipientsOf(input: { to: string | string[]; cc?: string[]; bcc?: string[] }): Recipients {
  const list = typeof input.to === "string" ? [input.to] : input.to;
  return {
    to: list.map((a) => a.trim()),
    toGivenAsList: typeof input.to !== "string",
    cc: (input.cc ?? []).map((a) => a.trim()),
    bcc: (input.bcc ?? []).map((a) => a.trim()),
  };
}

/** Each address with the path that named it (`to`, `to.1`, `cc.0`, …). */
function addressPaths(r: Recipients): { address: string; path: string }[] {
  return [
    ...r.to.map((address, i) => ({ address, path: r.toGivenAsList ? `to.${i}` : "to" })),
    ...r.cc.map((address, i) => ({ address, path: `cc.${i}` })),
    ...r.bcc.map((address, i) => ({ address, path: `bcc.${i}` })),
  ];
}

/**
 * An address that bounced, complained or unsubscribed is not sent to, whichever of to, cc and bcc
 * names it: the caller hears it now (422 RECIPIENT_SUPPRESSED, each such address with why and since
 * when) rather than from an email cancelled later. The rows are read with the request's other checks.
 */
export function assertNotSuppressed(
  suppressedRows: { email: string; reason: string; created_at: string | Date }[],
  emails: { recipients: Recipients; prefix: string }[],
) {
  if (suppressedRows.length === 0) return;
  const suppressed = new Map(suppressedRows.map((row) => [row.email, row]));
  const issues = emails.flatMap((e) =>
    addressPaths(e.recipients).flatMap(({ address, path }) => {
      const row = suppressed.get(normalizeEmail(address));
      const at = row ? new Date(row.created_at).toISOString() : "";
      return row ? [{ path: `${e.prefix}${path}`, message: "is suppressed", address: normalizeEmail(address), reason: row.reason, suppressed_at: at }] : [];
    }),
  );
  if (issues.length === 0) return;
  const first = issues[0];
  throw new AppError(
    "RECIPIENT_SUPPRESSED",
    `${first.address} is suppressed (${first.reason} since ${first.suppressed_at}) and is not sent to${issues.length > 1 ? `, nor are ${issues.length - 1} more` : ""}`,
    issues,
  );
}

/**
 * A key with `sending_access` and a domain sends from that domain only: 403 otherwise, naming the
 * field. Checked here, in the one function every send goes through (the API, the batch, SMTP).
 */
export function assertKeyMaySendFrom(ctx: OrgContext, froms: { address: string; path: string }[]) {
  const domain = ctx.keyScope?.permission === "sending_access" ? ctx.keyScope.domain : null;
  if (!domain) return;
  const outside = froms.filter((f) => domainOf(f.address) !== domain);
  if (outside.length === 0) return;
  throw new AppError(
    "FORBIDDEN",
    `This API key may send only from ${domain}`,
    outside.map((f) => ({ path: f.path, message: `must be at ${domain}` })),
  );
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** `scheduled_at` at most 30 days ahead; a time already past sends at once. */
export function scheduleOf(scheduledAt: string | undefined, now: Date, maxDays: number, path: string): Date | null {
  if (!scheduledAt) return null;
  const at = new Date(scheduledAt);
  if (at.getTime() - now.getTime() > maxDays * DAY_MS) {
    throw new AppError("VALIDATION_ERROR", `scheduled_at may be at most ${maxDays} days ahead`, [{ path, message: `must be at most ${maxDays} days ahead` }]);
  }
  return at;
}
