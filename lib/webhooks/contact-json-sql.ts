const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', ${ISO})`;

/** SQL text building the contact record as the API shows it from the row aliased `c` (no parameters). */
export const CONTACT_JSON_SQL = `jsonb_build_object(
  'id', c.id, 'organization_id', c.organization_id, 'email', c.email, 'first_name', c.first_name,
  'last_name', c.last_name, 'metadata', COALESCE(c.metadata, '{}'::jsonb), 'subscribed', c.subscribed,
  'unsubscribed_at', ${iso("c.unsubscribed_at")}, 'tags', to_jsonb(COALESCE(c.tags, '{}'::text[])),
  'created_at', ${iso("c.created_at")}, 'updated_at', ${iso("c.updated_at")},
  'suppression', (SELECT jsonb_build_object('reason', s.reason, 'suppressed_at', ${iso("s.created_at")})
    FROM suppressions s WHERE s.organization_id = c.organization_id AND s.email = c.email))`;
