/** The SQL twin of erasedAddress (contact-erasure.ts) for the column `column`, the organization being $1. */
const hashSql = (column: string) => `'sha256:' || encode(sha256(convert_to($1::text || ':' || lower(btrim(${column})), 'UTF8')), 'hex')`;

/**
 * SQL (text, the organization as $1) that suppresses again the addresses of `source` (a query
 * answering `email`) whose erased hash is suppressed: an erased person whose address comes back
 * through an import, the API or a form is still not mailed. The EXISTS runs first, on the partial
 * index of erased suppressions: an organization that never erased a suppressed address pays one
 * index probe and never reads `source`.
 */
export const resuppressErasedSql = (source: string) => `
  INSERT INTO suppressions (organization_id, email, reason, created_at)
  SELECT $1::uuid, x.email, s.reason, s.created_at FROM (${source}) x
  JOIN suppressions s ON s.organization_id = $1::uuid AND s.erased AND s.email = ${hashSql("x.email")}
  WHERE EXISTS (SELECT 1 FROM suppressions WHERE organization_id = $1::uuid AND erased)
  ON CONFLICT (organization_id, email) DO NOTHING`;
