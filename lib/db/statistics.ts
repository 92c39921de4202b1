import { db as defaultDb, type Db } from "@/lib/db";
import { errorField, log } from "@/lib/log";

/** The tables large writes land in; ANALYZE takes names, not parameters, so only these. */
export type AnalyzedTable = "contacts" | "segment_contacts" | "contact_topics" | "emails";

/** Below this a write is left to autovacuum: ANALYZE would cost more than a plan it could change. */
const SMALL_WRITE = 1_000;
/** autovacuum's own rule (autovacuum_analyze_scale_factor): statistics go stale past a tenth of the table. */
const STALE_FRACTION = 0.1;

/**
 * Keeps the planner's statistics current after a large write. Right after a list is imported, the
 * planner still believes the tables are as small as autovacuum last saw them (or never analyzed):
 * it estimated 1 row for a 20 000-contact audience and chose nested loops, and a broadcast sent at
 * once fanned out in 26–44 s instead of 1–2 s. Autovacuum catches up within a minute or so; a
 * marketer who sends at once should not wait for it. So a write of `rowsWritten` rows that is more
 * than a tenth of a table (or lands in one never analyzed) runs ANALYZE on it, which samples a
 * bounded number of rows (about 50 ms at 20 000 rows, well under a second at a million). Called
 * after the write committed; a failure is logged, never the caller's error.
 *
 * `vacuum` (an import) runs VACUUM (ANALYZE) instead: after a million new contacts autovacuum's
 * own pass over them (it visits every page, setting hint bits and the visibility map) started
 * while the list was being sent at once and took a core from it; in the import, which the
 * marketer waits for anyway, it leaves nothing for later.
 */
export async function keepStatisticsCurrent(
  tables: AnalyzedTable[],
  rowsWritten: number,
  db: Db = defaultDb,
  { vacuum = false }: { vacuum?: boolean } = {},
): Promise<AnalyzedTable[]> {
  if (rowsWritten < SMALL_WRITE || tables.length === 0) return [];
  try {
    const sizes = await db.$queryRaw<{ table: AnalyzedTable; estimate: number }[]>`
      SELECT t AS table, c.reltuples::float8 AS estimate FROM unnest(${tables}::text[]) AS t JOIN pg_class c ON c.oid = to_regclass(t)`;
    const stale = sizes.filter((size) => size.estimate < 0 || rowsWritten > STALE_FRACTION * size.estimate).map((size) => size.table);
    if (stale.length > 0) await db.$executeRawUnsafe(`${vacuum ? "VACUUM (ANALYZE)" : "ANALYZE"} ${stale.join(", ")}`);
    return stale;
  } catch (error) {
    log.warn({ err: errorField(error), tables }, "statistics: ANALYZE after a large write failed; autovacuum will catch up");
    return [];
  }
}

/**
 * Analyzes `emails` when the planner's statistics see fewer than half of the `queued` emails a
 * writer has just queued (status `queued`, from the most-common-values list of the last ANALYZE).
 * The claims plan on that figure: beside a million sent emails, with statistics that had seen no
 * queued email, finding the organizations with relay emails read every queued email and sorted
 * them (1.2 s a claim), and a 100 000-email broadcast sent at 80 emails/s for two minutes, until
 * autovacuum analyzed (it waits for a tenth of the table, as keepStatisticsCurrent does). Answers
 * whether it analyzed; a failure is logged, never the caller's error.
 */
export async function keepQueueStatisticsCurrent(queued: number, db: Db = defaultDb): Promise<boolean> {
  if (queued < SMALL_WRITE) return false;
  try {
    const [{ estimate }] = await db.$queryRaw<{ estimate: number }[]>`
      SELECT COALESCE((
        SELECT m.freq * greatest(c.reltuples, 0)
        FROM pg_stats s
        CROSS JOIN LATERAL unnest(s.most_common_vals::text::text[], s.most_common_freqs) AS m(value, freq)
        JOIN pg_class c ON c.oid = 'emails'::regclass
        WHERE s.schemaname = current_schema() AND s.tablename = 'emails' AND s.attname = 'status' AND m.value = 'queued'), 0)::float8 AS estimate`;
    if (estimate >= queued / 2) return false;
    await db.$executeRawUnsafe("ANALYZE emails");
    return true;
  } catch (error) {
    log.warn({ err: errorField(error) }, "statistics: ANALYZE of the queued emails failed; autovacuum will catch up");
    return false;
  }
}
