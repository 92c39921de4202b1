import { db, Prisma } from "@/lib/db";

// A retention sweep walks its table's primary key: ids are uuid_v7 (schema.prisma), the first 48
// bits the time they were made in milliseconds, so the rows older than a cutoff are the ids below
// the cutoff's own id, read in index order from where the last batch stopped (retention_progress).
// The table needs no index on its time, and a batch reads only its own window of the key. Rows
// written before ids were time-ordered (random v4 ids, before the sending_write_volume migration)
// are reached only where their id happens to sort below the cutoff.

export type SweepOptions = {
  /** Now, by the caller's clock (tests move it instead of waiting). */
  now: Date;
  /** How long rows are kept. */
  days: number;
  /** Rows of the key read by one batch. */
  batchSize?: number;
  /** Only this organization's rows, under a position of its own (tests share one database). */
  organizationId?: string;
};

/** What one batch did: rows of the key read (0: the sweep has caught up) and rows changed or deleted. */
export type SweepBatch = { scanned: number; changed: number };

const ZERO_ID = "00000000-0000-0000-0000-000000000000";

/** The smallest uuid_v7 of the millisecond `at`: every id made before `at` sorts below it. */
export function timeOrderedFloor(at: Date): string {
  const hex = Math.max(0, Math.floor(at.getTime())).toString(16).padStart(12, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-000000000000`;
}

const cutoffOf = (options: SweepOptions) => new Date(options.now.getTime() - options.days * 86_400_000);

const scopedTo = (organizationId: string | undefined) => (organizationId ? Prisma.sql`AND t.organization_id = ${organizationId}::uuid` : Prisma.empty);

/** The table a sweep walks, by its key. */
type SweptTable = "emails" | "events";

/**
 * Runs one batch of the sweep `name` over `table` in a transaction of its own. The batch is one
 * statement: `win`, the next `limit` ids of the key from the sweep's position up to the cutoff's id
 * bound, then the CTEs `change` writes for the cutoff (they read `win`), of which the one named
 * `counted` returns a row for each row changed or deleted. The position moves to the last id read.
 * A sweep another worker is running now is left to it (the position's row is locked, skipped).
 */
export async function sweepBatch(
  name: string,
  table: SweptTable,
  options: SweepOptions,
  change: (cutoff: Date) => { ctes: Prisma.Sql; counted: string },
): Promise<SweepBatch> {
  const sweep = options.organizationId ? `${name}:${options.organizationId}` : name;
  const cutoff = cutoffOf(options);
  const { ctes, counted } = change(cutoff);
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`INSERT INTO retention_progress (sweep, position) VALUES (${sweep}, ${ZERO_ID}::uuid) ON CONFLICT (sweep) DO NOTHING`;
      const [progress] = await tx.$queryRaw<{ position: string }[]>`
        SELECT position::text AS position FROM retention_progress WHERE sweep = ${sweep} FOR UPDATE SKIP LOCKED`;
      if (!progress) return { scanned: 0, changed: 0 };
      const [result] = await tx.$queryRaw<{ scanned: number; last: string | null; changed: number }[]>`
        WITH win AS (
          SELECT t.id FROM ${Prisma.raw(table)} t
          WHERE t.id > ${progress.position}::uuid AND t.id < ${timeOrderedFloor(cutoff)}::uuid ${scopedTo(options.organizationId)}
          ORDER BY t.id LIMIT ${options.batchSize ?? 1000}
        ),
        ${ctes}
        SELECT (SELECT count(*)::int FROM win) AS scanned, (SELECT id::text FROM win ORDER BY id DESC LIMIT 1) AS last,
          (SELECT count(*)::int FROM ${Prisma.raw(counted)}) AS changed`;
      if (result.last) await tx.$executeRaw`UPDATE retention_progress SET position = ${result.last}::uuid, updated_at = now() WHERE sweep = ${sweep}`;
      return { scanned: result.scanned, changed: result.changed };
    },
    { timeout: 60_000, maxWait: 10_000 },
  );
}
