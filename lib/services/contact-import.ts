import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { PoolClient } from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { OrgContext } from "@/lib/domain/context";
import { invalidField } from "@/lib/domain/errors";
import { pool } from "@/lib/db/pool";
import { limits } from "@/lib/schemas/common";
import { recordImportedContactEvents } from "./contact-events";
import { MAX_IMPORT_ERRORS, type ImportContactsInput, type ImportContactsResult, type ImportError } from "@/lib/schemas/contacts";
import { copyText, invalidAddress, openCsv, planColumns, readRow, type ColumnPlan } from "./contact-import-csv";
import type { CsvUpload } from "./csv-upload";
import { keepStatisticsCurrent } from "@/lib/db/statistics";
import { db } from "@/lib/db";
import { propertyTypes } from "@/lib/audience/scope";
import { appendConsentSql, consentRecord } from "./consent";
import { resuppressErasedSql } from "./erased-suppressions";
import { ImportFlags } from "./import-flags";
import { segmentIsDynamic } from "./segments";
import { addingToStaticSegmentSql } from "@/lib/automations/start-runs";

// `given` is the email as the file wrote it, when that differs from the normalized one (for the errors of repeats).
const STAGING_TABLE = `
  CREATE TEMP TABLE contact_import (
    row integer NOT NULL, given text,
    email text NOT NULL, first_name text, last_name text, subscribed boolean, tags text, metadata jsonb, timezone text
  ) ON COMMIT DROP`;

/**
 * Deletes the staged rows a statement names and answers the first of them in row order, with the
 * count of all: a file can repeat one email a million times, and the answer stays small.
 */
const dropping = (deleteReturning: string) => `
  WITH dropped AS (${deleteReturning})
  SELECT row, email, count(*) OVER () AS total FROM dropped ORDER BY row LIMIT ${MAX_IMPORT_ERRORS}`;

// The first row of an email wins; the later ones leave the staging table and are reported.
const DROP_REPEATS = dropping(`
  WITH firsts AS (
    SELECT email, min(row) AS row FROM contact_import GROUP BY email HAVING count(*) > 1
  )
  DELETE FROM contact_import s USING firsts f
  WHERE s.email = f.email AND s.row > f.row
  RETURNING s.row, coalesce(s.given, s.email) AS email`);

// Tags are added to an existing contact's, and the sum may pass the limit a contact's tags have.
const DROP_TOO_MANY_TAGS = dropping(`
  DELETE FROM contact_import s USING contacts c
  WHERE c.organization_id = $1::uuid AND c.email = s.email AND s.tags IS NOT NULL
    AND cardinality(c.tags) + (SELECT count(*) FROM unnest(string_to_array(s.tags, ',')) AS t WHERE t <> ALL (c.tags)) > $2
  RETURNING s.row, coalesce(s.given, s.email) AS email`);

// Metadata keys are merged into an existing contact's, and the union may pass the metadata limits.
// PostgreSQL writes jsonb with a space after each colon and comma; JSON.stringify, which the limit counts, does not.
const DROP_TOO_MUCH_METADATA = dropping(`
  DELETE FROM contact_import s USING contacts c
  WHERE c.organization_id = $1::uuid AND c.email = s.email AND s.metadata IS NOT NULL
    AND c.metadata <> '{}'::jsonb
    AND ((SELECT count(*) FROM jsonb_object_keys(c.metadata || s.metadata)) > $2
      OR octet_length((c.metadata || s.metadata)::text) - 2 * (SELECT count(*) FROM jsonb_object_keys(c.metadata || s.metadata)) + 1 > $3)
  RETURNING s.row, coalesce(s.given, s.email) AS email`);

// Empty cells (NULL in staging) leave a field as it is; metadata keys are merged and tags added.
const UPDATE_EXISTING = `
  UPDATE contacts c SET
    first_name = coalesce(s.first_name, c.first_name),
    last_name = coalesce(s.last_name, c.last_name),
    subscribed = coalesce(s.subscribed, c.subscribed),
    unsubscribed_at = CASE
      WHEN s.subscribed IS NULL THEN c.unsubscribed_at
      WHEN s.subscribed THEN NULL
      ELSE coalesce(c.unsubscribed_at, now()) END,
    tags = CASE WHEN s.tags IS NULL THEN c.tags ELSE coalesce(c.tags, '{}') || ARRAY(
      SELECT t FROM unnest(string_to_array(s.tags, ',')) AS t WHERE t <> ALL (coalesce(c.tags, '{}'))) END,
    metadata = CASE WHEN s.metadata IS NULL THEN c.metadata ELSE c.metadata || s.metadata END,
    timezone = coalesce(s.timezone, c.timezone),
    consent = CASE WHEN s.subscribed AND NOT c.subscribed THEN ${appendConsentSql("c.consent", "$2::jsonb")} ELSE c.consent END,
    updated_at = now()
  FROM contact_import s
  WHERE c.organization_id = $1::uuid AND c.email = s.email`;

const insertMissingSql = (onConflict: string) => `
  INSERT INTO contacts (organization_id, email, first_name, last_name, subscribed, unsubscribed_at, tags, metadata, timezone, consent)
  SELECT $1::uuid, s.email, s.first_name, s.last_name, coalesce(s.subscribed, true),
         CASE WHEN s.subscribed = false THEN now() END,
         coalesce(string_to_array(s.tags, ','), '{}'), coalesce(s.metadata, '{}'), s.timezone,
         CASE WHEN s.subscribed = false THEN '[]'::jsonb ELSE $2::jsonb END
  FROM contact_import s
  WHERE NOT EXISTS (SELECT 1 FROM contacts c WHERE c.organization_id = $1::uuid AND c.email = s.email)
  ${onConflict}`;

const UNIQUE_VIOLATION = "23505";

/**
 * A plain INSERT runs at COPY speed; ON CONFLICT's speculative insertion is markedly slower, so it is
 * only the fallback for when another request created one of these emails since the anti-join looked.
 */
async function insertMissing(client: PoolClient, organizationId: string, consent: string): Promise<number> {
  await client.query("SAVEPOINT insert_missing");
  try {
    const { rowCount } = await client.query(insertMissingSql(""), [organizationId, consent]);
    await client.query("RELEASE SAVEPOINT insert_missing");
    return rowCount ?? 0;
  } catch (error) {
    if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
    await client.query("ROLLBACK TO SAVEPOINT insert_missing");
    const { rowCount } = await client.query(insertMissingSql("ON CONFLICT (organization_id, email) DO NOTHING"), [organizationId, consent]);
    return rowCount ?? 0;
  }
}

// New members enter the automations the segment triggers, in the same statement (lib/automations).
const ADD_TO_SEGMENT = addingToStaticSegmentSql(`
  INSERT INTO segment_contacts (segment_id, contact_id, organization_id)
  SELECT $2::uuid, c.id, $1::uuid
  FROM contact_import s JOIN contacts c ON c.organization_id = $1::uuid AND c.email = s.email
  ON CONFLICT DO NOTHING
  RETURNING contact_id`);

const COPY_CHUNK = 256 * 1024;

/** The first rejected rows, in the order they are added, and the count of all. */
class RejectedRows {
  readonly first: ImportError[] = [];
  total = 0;

  add(error: ImportError) {
    this.total++;
    if (this.first.length < MAX_IMPORT_ERRORS) this.first.push(error);
  }
}

/**
 * Streams the valid rows into the staging table with COPY, each with its row number; rows with an
 * error are counted in `rejected` instead, and flagged addresses in `flags` (left out when the
 * caller skips their flag). Answers the number of rows staged, and whether any has tags or metadata.
 */
async function stageRows(client: PoolClient, nextBatch: () => Promise<string[][] | null>, plan: ColumnPlan, rejected: RejectedRows, flags: ImportFlags) {
  let staged = 0;
  let tagged = false;
  let withMetadata = false;
  async function* lines() {
    let buffer = "";
    // The header is row 1, as a spreadsheet numbers it.
    let row = 1;
    for (let batch = await nextBatch(); batch; batch = await nextBatch()) {
      for (const record of batch) {
        row++;
        const result = readRow(record, plan);
        if (!result) continue;
        if (!result.ok) {
          rejected.add({ row, email: result.email, error: result.error });
          if (invalidAddress(result)) flags.invalidAddress();
        } else if (!flags.leavesOut(row, result.email, result.given)) {
          staged++;
          tagged ||= result.tagged;
          withMetadata ||= result.withMetadata;
          buffer += `${row}\t${result.given === result.email ? "\\N" : copyText(result.given)}\t${result.line}`;
        }
      }
      if (buffer.length >= COPY_CHUNK) {
        yield buffer;
        buffer = "";
      }
    }
    if (buffer) yield buffer;
  }
  await pipeline(Readable.from(lines()), client.query(copyFrom("COPY contact_import FROM STDIN")));
  return { staged, tagged, withMetadata };
}

/** The first entries of both lists (each in row order) in row order, as one list of at most MAX_IMPORT_ERRORS. */
function byRow(a: ImportError[], b: ImportError[]): ImportError[] {
  if (b.length === 0) return a;
  const merged: ImportError[] = [];
  let i = 0;
  let j = 0;
  while ((i < a.length || j < b.length) && merged.length < MAX_IMPORT_ERRORS) {
    merged.push(j >= b.length || (i < a.length && a[i].row < b[j].row) ? a[i++] : b[j++]);
  }
  return merged;
}

const REPEATED = "repeats the email of an earlier row";
const TOO_MANY_TAGS = `would give the contact more than ${limits.tags} tags`;
const TOO_MUCH_METADATA = `would give the contact more than ${limits.metadataKeys} metadata keys or ${limits.metadataBytes / 1024} KB of metadata`;

/**
 * CSV import: parse while COPYing the valid rows into a staging table, then update the existing
 * contacts and create the missing ones with one statement each, all in one transaction.
 */
export async function importContacts(ctx: OrgContext, input: Omit<ImportContactsInput, "file_content">, csv: CsvUpload): Promise<ImportContactsResult> {
  const { header, batches } = await openCsv(csv);
  const plan = planColumns(header, input.column_mappings, await propertyTypes(db, ctx.organizationId));

  const client = await pool.connect();
  let failed = false;
  try {
    await client.query("BEGIN");
    // Joining a large staging table to a large organization's contacts should hash in memory, not spill.
    await client.query("SET LOCAL work_mem = '64MB'");
    if (input.segment_id) {
      // KEY SHARE keeps the segment from being deleted before its memberships are written.
      const segment = await client.query<{ dynamic: boolean }>(
        "SELECT filter IS NOT NULL AS dynamic FROM segments WHERE id = $1 AND organization_id = $2 FOR KEY SHARE",
        [input.segment_id, ctx.organizationId],
      );
      if (segment.rowCount === 0) throw invalidField("segment_id", "no such segment in this organization");
      if (segment.rows[0].dynamic) throw segmentIsDynamic();
    }
    await client.query(STAGING_TABLE);
    const invalid = new RejectedRows();
    const flags = new ImportFlags(new Set(input.skip_flagged ?? []));
    const copied = await stageRows(client, batches, plan, invalid, flags);
    // Without statistics the planner guesses the staging table's size, and guesses badly for a million rows.
    await client.query("ANALYZE contact_import");
    const dropped: ImportError[] = [];
    let droppedTotal = 0;
    const drop = async (sql: string, params: unknown[], error: string) => {
      const { rows } = await client.query<{ row: number; email: string; total: string }>(sql, params);
      for (const { row, email } of rows) dropped.push({ row, email, error });
      const total = rows.length ? Number(rows[0].total) : 0;
      droppedTotal += total;
      return total;
    };
    let staged = copied.staged - (await drop(DROP_REPEATS, [], REPEATED));
    if (copied.tagged) staged -= await drop(DROP_TOO_MANY_TAGS, [ctx.organizationId, limits.tags], TOO_MANY_TAGS);
    if (copied.withMetadata) staged -= await drop(DROP_TOO_MUCH_METADATA, [ctx.organizationId, limits.metadataKeys, limits.metadataBytes], TOO_MUCH_METADATA);
    const errors = byRow(
      invalid.first,
      dropped.sort((a, b) => a.row - b.row),
    );
    const errorsTotal = invalid.total + droppedTotal;
    // Created subscribed, or subscribed again: the import is the consent (decisions.md, "Consent").
    const consent = JSON.stringify([consentRecord("import")]);
    const updated = (await client.query(UPDATE_EXISTING, [ctx.organizationId, consent])).rowCount ?? 0;
    // When every staged row was an existing contact there is nothing to create, and no need to look again.
    const created = input.handle_missing === "create" && updated < staged ? await insertMissing(client, ctx.organizationId, consent) : 0;
    if (created > 0) await client.query(resuppressErasedSql("SELECT email FROM contact_import"), [ctx.organizationId]);
    if (input.segment_id) await client.query(ADD_TO_SEGMENT, [ctx.organizationId, input.segment_id]);
    await recordImportedContactEvents(client, ctx.organizationId);
    await client.query("COMMIT");
    // A list imported to be sent at once must not be planned as the tables were before it.
    await keepStatisticsCurrent(input.segment_id ? ["contacts", "segment_contacts"] : ["contacts"], created + updated, undefined, { vacuum: true });
    return {
      created,
      updated,
      skipped: errorsTotal + flags.skipped + staged - updated - created,
      errors,
      errors_total: errorsTotal,
      flagged: flags.result(),
    };
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    // A connection that failed mid-COPY or mid-transaction is closed rather than reused; closing it rolls back.
    client.release(failed);
  }
}
