import { clearTwoFactor } from "@/lib/auth/two-factor";
import type { Prisma } from "@/lib/db";
import { recordAudit } from "./audit-log";

/** Shown on each webhook turned off, so the owner knows why and may turn it back on. */
const WEBHOOK_REASON = "Made before the address was proven; turned off when its owner took the address back with a password reset";

/**
 * The owner of an address took it back from an account nobody had proven it for (a password reset
 * of an unverified account: the link reached the address's inbox). Whatever the earlier, unproven
 * holder set up stops acting for the owner: two-factor sign-in goes (it would lock the owner out),
 * API keys are revoked and invitations sent are cancelled (both need a proven address today, but
 * older accounts may hold them), and in the organizations only this account belongs to — the ones
 * the holder made, as an unproven account cannot join others — webhooks are turned off and inboxes
 * paused, so no event or email reaches a destination the holder chose. The owner turns on again what
 * they recognise. Sessions end with the reset itself. In the reset's transaction.
 */
export async function reclaimAddress(tx: Prisma.TransactionClient, user: { id: string; email: string }, ip: string | null): Promise<void> {
  const now = new Date();
  await clearTwoFactor(tx, user.id);
  const keys = await tx.apiKey.updateMany({ where: { user_id: user.id, revoked_at: null }, data: { revoked_at: now } });
  const invitations = await tx.invitation.updateMany({ where: { invited_by: user.id, status: "pending" }, data: { status: "cancelled" } });
  const own = await tx.$queryRaw<{ organization_id: string }[]>`
    SELECT m.organization_id::text AS organization_id FROM memberships m
    WHERE m.user_id = ${user.id}::uuid
      AND NOT EXISTS (SELECT 1 FROM memberships o WHERE o.organization_id = m.organization_id AND o.user_id <> m.user_id)`;
  for (const { organization_id } of own) {
    const webhooks = await tx.webhook.updateMany({ where: { organization_id, active: true }, data: { active: false, disabled_reason: WEBHOOK_REASON } });
    const inboxes = await tx.inbox.updateMany({ where: { organization_id, paused: false }, data: { paused: true, paused_reason: "manual", paused_at: now } });
    await recordAudit(
      { organizationId: organization_id, userId: user.id, userEmail: user.email, ip },
      {
        action: "user.address_reclaimed",
        details: { webhooks_turned_off: webhooks.count, inboxes_paused: inboxes.count, api_keys_revoked: keys.count, invitations_cancelled: invitations.count },
      },
      tx,
    );
  }
}
