import type { OrgContext } from "@/lib/domain/context";
import { rateLimited } from "@/lib/domain/errors";
import { db } from "@/lib/db";

export type Quota = { action: string; limit: number; windowMs: number; what: string };

/**
 * Takes `amount` from the organization's allowance for `action` in the current fixed window, or
 * throws 429 RATE_LIMITED with Retry-After (the seconds until the window ends). One statement,
 * in PostgreSQL, so every web process shares the count and two requests cannot both take the last units.
 */
export async function consumeQuota(ctx: OrgContext, quota: Quota, amount: number, now = new Date()): Promise<{ used: number; limit: number }> {
  const start = Math.floor(now.getTime() / quota.windowMs) * quota.windowMs;
  const retryAfter = Math.max(1, Math.ceil((start + quota.windowMs - now.getTime()) / 1000));
  const refuse = () =>
    rateLimited(`At most ${quota.limit} ${quota.what} an hour; try again in ${Math.ceil(retryAfter / 60)} min`, retryAfter, {
      limit: quota.limit,
      retry_after_seconds: retryAfter,
    });
  if (amount > quota.limit) throw refuse();
  const rows = await db.$queryRaw<{ count: number }[]>`
    INSERT INTO usage_windows (organization_id, action, window_start, count)
    VALUES (${ctx.organizationId}::uuid, ${quota.action}, ${new Date(start)}, ${amount})
    ON CONFLICT (organization_id, action, window_start)
    DO UPDATE SET count = usage_windows.count + EXCLUDED.count
    WHERE usage_windows.count + EXCLUDED.count <= ${quota.limit}
    RETURNING count`;
  // Old windows of this organization go as new ones are used: the table stays a few rows per organization.
  await db.$executeRaw`DELETE FROM usage_windows WHERE organization_id = ${ctx.organizationId}::uuid AND action = ${quota.action} AND window_start < ${new Date(start - quota.windowMs)}`;
  if (!rows[0]) throw refuse();
  return { used: rows[0].count, limit: quota.limit };
}
