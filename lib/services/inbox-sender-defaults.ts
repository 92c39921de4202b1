import type { OrgContext } from "@/lib/domain/context";
import { invalidField } from "@/lib/domain/errors";
import type { DbClient } from "@/lib/db";

type Sender = { from_name?: string | null; from_email?: string | null; reply_to?: string | null };

/**
 * The sender fields an inbox supplies: its from name (or, lacking one, its name), from address and
 * reply-to, each only where the request did not give the field itself. 400 naming `path` when the
 * inbox is not the caller's.
 */
export async function inboxSenderDefaults(client: DbClient, ctx: OrgContext, inboxId: string, path: string, given: Sender) {
  const inbox = await client.inbox.findFirst({
    where: { id: inboxId, organization_id: ctx.organizationId },
    select: { name: true, from_email: true, from_name: true, reply_to: true },
  });
  if (!inbox) throw invalidField(path, "no such inbox in this organization");
  const defaults: { from_name?: string; from_email?: string; reply_to?: string | null } = {};
  if (given.from_name === undefined) defaults.from_name = inbox.from_name ?? inbox.name;
  if (given.from_email === undefined) defaults.from_email = inbox.from_email;
  if (given.reply_to === undefined) defaults.reply_to = inbox.reply_to;
  return defaults;
}
