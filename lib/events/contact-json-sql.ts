const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', ${ISO})`;

/**
 * SQL text building the contact record as the API shows it (serializeContact in contacts.ts, same
 * keys in the same order) from the row aliased `c`, no parameters. The one SQL copy of it: the
 * unpaged list streams it as text (lib/services/contacts-list.ts) and `contact.*` events written in
 * bulk carry it as their webhooks' data — by services and by the automations engine
 * (`update_contact`), which does not import services: so it lives here, beside the recorders.
 */
export const CONTACT_JSON_SQL = `json_build_object(
  'id', c.id, 'organization_id', c.organization_id, 'email', c.email, 'first_name', c.first_name,
  'last_name', c.last_name, 'metadata', COALESCE(c.metadata, '{}'::jsonb), 'subscribed', c.subscribed,
  'unsubscribed_at', ${iso("c.unsubscribed_at")}, 'tags', to_json(COALESCE(c.tags, '{}'::text[])), 'timezone', c.timezone,
  'consent', c.consent,
  'created_at', ${iso("c.created_at")}, 'updated_at', ${iso("c.updated_at")},
  'suppression', (SELECT json_build_object('reason', s.reason, 'suppressed_at', ${iso("s.created_at")})
    FROM suppressions s WHERE s.organization_id = c.organization_id AND s.email = c.email))`;
