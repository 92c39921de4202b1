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
