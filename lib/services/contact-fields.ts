import type { OrgContext } from "@/lib/domain/context";
import { db } from "@/lib/db";

const SAMPLE = 10_000;
const MAX_KEYS = 100;

/**
 * What a placeholder can name: the contact's own fields and the metadata keys the organization's
 * contacts carry. Counted over the newest 10 000 contacts, so the menu opens as fast at a million.
 */
export async function contactFields(ctx: OrgContext) {
  const keys = await db.$queryRaw<{ key: string; contacts: number }[]>`
    SELECT k AS key, count(*)::int AS contacts
    FROM (SELECT metadata FROM contacts WHERE organization_id = ${ctx.organizationId}::uuid ORDER BY created_at DESC LIMIT ${SAMPLE}) c,
      LATERAL jsonb_object_keys(CASE WHEN jsonb_typeof(c.metadata) = 'object' THEN c.metadata ELSE '{}'::jsonb END) k
    GROUP BY k ORDER BY count(*) DESC, k LIMIT ${MAX_KEYS}`;
  return {
    fields: [
      { name: "first_name", label: "First name" },
      { name: "last_name", label: "Last name" },
      { name: "email", label: "Email" },
    ],
    metadata_keys: keys.filter((k) => /^[A-Za-z_][\w-]*$/.test(k.key)),
  };
}
