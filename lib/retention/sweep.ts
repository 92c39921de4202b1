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

/** `AND <alias>.organization_id = …` when the sweep is scoped to one organization. */
export const scopedTo = (alias: string, organizationId: string | undefined) =>
  organizationId ? Prisma.sql`AND ${Prisma.raw(alias)}.organization_id = ${organizationId}::uuid` : Prisma.empty;

/**
 * Runs one batch of the sweep `name` in a transaction of its own: `batch` gets the position to read
 * from and the id bound of the cutoff, and answers how many rows it read, the last id it read, and
 * how many it changed. The position moves to that last id. A sweep another worker is running now is
 * left to it (the position's row is locked, skipped).
 */
export async function sweepBatch(
  name: string,
  options: SweepOptions,
  batch: (
    tx: Prisma.TransactionClient,
    window: { after: string; below: string; cutoff: Date; limit: number },
  ) => Promise<{ scanned: number; last: string | null; changed: number }>,
): Promise<SweepBatch> {
  const sweep = options.organizationId ? `${name}:${options.organizationId}` : name;
  const cutoff = cutoffOf(options);
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`INSERT INTO retention_progress (sweep, position) VALUES (${sweep}, ${ZERO_ID}::uuid) ON CONFLICT (sweep) DO NOTHING`;
      const [progress] = await tx.$queryRaw<{ position: string }[]>`
        SELECT position::text AS position FROM retention_progress WHERE sweep = ${sweep} FOR UPDATE SKIP LOCKED`;
      if (!progress) return { scanned: 0, changed: 0 };
      const result = await batch(tx, { after: progress.position, below: timeOrderedFloor(cutoff), cutoff, limit: options.batchSize ?? 1000 });
      if (result.last) await tx.$executeRaw`UPDATE retention_progress SET position = ${result.last}::uuid, updated_at = now() WHERE sweep = ${sweep}`;
      return { scanned: result.scanned, changed: result.changed };
    },
    { timeout: 60_000, maxWait: 10_000 },
  );
}
