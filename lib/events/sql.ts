/** The columns a recorder's SELECT may fill, by name; the others take their defaults. */
export type EventColumn =
  "organization_id" | "contact_id" | "name" | "properties" | "source" | "email_id" | "broadcast_id" | "automation_id" | "machine" | "occurred_at" | "payload";

/**
 * Two data-modifying CTEs, for a recorder that writes its fact in one statement (record-sent.ts,
 * record-feedback.ts): `<name>` inserts the events `select` yields (its columns are `columns`, in
 * that order) and `<name>_announced` puts each in the outbox. Joined to the recorder's other CTEs,
 * the events exist exactly when the fact does, in the same round trip. `select` is SQL text: its
 * parameters are the statement's.
 */
export function recordEventsCtes(name: string, columns: EventColumn[], select: string): string {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`recordEventsCtes: bad CTE name ${name}`);
  return `${name} AS (
    INSERT INTO events (${columns.join(", ")})
    ${select}
    RETURNING id, organization_id
  ),
  ${name}_announced AS (
    INSERT INTO event_outbox (organization_id, event_id) SELECT organization_id, id FROM ${name}
  )`;
}

/** A statement of its own that records and announces the events `select` yields (plain pg, e.g. an import's connection). */
export const recordEventsStatement = (columns: EventColumn[], select: string) =>
  `WITH ${recordEventsCtes("recorded", columns, select)} SELECT count(*)::int AS recorded FROM recorded`;
