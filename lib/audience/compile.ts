import { Prisma } from "@/lib/db";
import { invalidField } from "@/lib/domain/errors";
import type { EventCondition, Filter, PropertyType, SegmentCondition } from "@/lib/schemas/filters";
import { compileField } from "./compile-field";

/** What a filter is compiled against: the organization's typed properties and the segments it reaches. */
export type FilterScope = {
  organizationId: string;
  properties: ReadonlyMap<string, PropertyType>;
  /** Every segment the filter reaches through `in_segment`, directly or through other segments' filters. */
  segments: ReadonlyMap<string, { filter: Filter | null }>;
  /** Broadcasts of the organization named by `where.broadcast_id` (strict compilation checks them). */
  broadcasts: ReadonlySet<string>;
  /** The time `within_days` and `before_days` count from. */
  now: Date;
  /**
   * Strict: a problem is a 400 naming its path (a filter a client sends). Lenient: the condition
   * matches nobody (a stored filter whose property changed type or whose segment was deleted since,
   * which must not stop a broadcast's fan-out).
   */
  strict: boolean;
  /** The segment whose filter this is, when saving one: reaching it again through in_segment is a cycle. */
  self?: string;
};

/** Segments nest through in_segment at most this deep (A includes B includes C …). */
export const MAX_SEGMENT_NESTING = 5;

class FilterProblem extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

const FALSE = Prisma.sql`false`;
const TRUE = Prisma.sql`true`;

/**
 * `strict` covers the conditions of the filter being compiled; inside another segment's stored
 * filter they are lenient (its problems are not the caller's). A cycle, or nesting too deep, is
 * structural: reported whenever the scope is strict, at the in_segment that led into it.
 */
type Walk = { scope: FilterScope; strict: boolean; stack: string[]; compiled: { conditions: number } };

/**
 * Conditions one compilation writes, the included segments' filters counted in: 50 segments each
 * including 50 others would otherwise nest into millions of conditions in one statement.
 */
const MAX_COMPILED_CONDITIONS = 500;

function problem(walk: Walk, path: string, message: string): Prisma.Sql {
  if (walk.strict) throw new FilterProblem(path, message);
  return FALSE;
}

function structuralProblem(walk: Walk, path: string, message: string): Prisma.Sql {
  if (walk.scope.strict) throw new FilterProblem(path, message);
  return FALSE;
}

const EXCLUDES_MACHINES = new Set(["email.opened", "email.clicked"]);

/**
 * The events of the contact `c` an event condition counts. Opens and clicks made by programs
 * (link scanners, image proxies) are not the contact's: `machine` ones are left out.
 */
function eventsWhere(condition: EventCondition, walk: Walk): Prisma.Sql {
  const parts = [Prisma.sql`e.organization_id = ${walk.scope.organizationId}::uuid`, Prisma.sql`e.name = ${condition.event}`];
  if (condition.within_days !== undefined)
    parts.push(Prisma.sql`e.occurred_at > ${walk.scope.now}::timestamptz - make_interval(days => ${condition.within_days}::int)`);
  if (condition.where?.broadcast_id) parts.push(Prisma.sql`e.broadcast_id = ${condition.where.broadcast_id}::uuid`);
  if (condition.where?.automation_id) parts.push(Prisma.sql`e.automation_id = ${condition.where.automation_id}::uuid`);
  if (EXCLUDES_MACHINES.has(condition.event)) parts.push(Prisma.sql`NOT e.machine`);
  return Prisma.join(parts, " AND ");
}

/**
 * `happened` is an EXISTS probe of the (organization_id, contact_id, name, occurred_at) index, which
 * PostgreSQL turns into a semi-join over a whole organization and keeps a probe for one contact.
 * With `count_gte` the counts are grouped once per contact in the subquery; its `contact_id` is the
 * grouping key, so a condition on one contact is pushed into it.
 */
function compileEvent(condition: EventCondition, path: string, walk: Walk): Prisma.Sql {
  const broadcast = condition.where?.broadcast_id;
  if (broadcast && walk.strict && !walk.scope.broadcasts.has(broadcast.toLowerCase())) {
    return problem(walk, `${path}.where.broadcast_id`, "no such broadcast in this organization");
  }
  const where = eventsWhere(condition, walk);
  const happened =
    (condition.count_gte ?? 1) <= 1
      ? Prisma.sql`EXISTS (SELECT 1 FROM events e WHERE e.contact_id = c.id AND ${where})`
      : Prisma.sql`c.id IN (SELECT e.contact_id FROM events e WHERE e.contact_id IS NOT NULL AND ${where}
          GROUP BY e.contact_id HAVING count(*) >= ${condition.count_gte}::int)`;
  return condition.op === "happened" ? happened : Prisma.sql`NOT (${happened})`;
}

/** Members of a segment: its rows in segment_contacts, or its filter compiled in place. */
function compileSegment(condition: SegmentCondition, path: string, walk: Walk): Prisma.Sql {
  const id = condition.in_segment.toLowerCase();
  const at = `${path}.in_segment`;
  if (id === walk.scope.self || walk.stack.includes(id))
    return structuralProblem(walk, at, "segments cannot include each other: this one is already part of it");
  const segment = walk.scope.segments.get(id);
  if (!segment) return problem(walk, at, "no such segment in this organization");
  if (segment.filter === null) {
    return Prisma.sql`EXISTS (SELECT 1 FROM segment_contacts sc WHERE sc.segment_id = ${id}::uuid AND sc.contact_id = c.id)`;
  }
  if (walk.stack.length >= MAX_SEGMENT_NESTING) return structuralProblem(walk, at, `segments include each other at most ${MAX_SEGMENT_NESTING} deep`);
  try {
    return compileNode(segment.filter, at, { ...walk, strict: false, stack: [...walk.stack, id] });
  } catch (error) {
    // Found inside the other segment's filter: named here, where the caller can change something.
    if (error instanceof FilterProblem) throw new FilterProblem(at, error.message);
    throw error;
  }
}

function compileNode(node: Filter, path: string, walk: Walk): Prisma.Sql {
  if (!("all" in node || "any" in node || "not" in node) && ++walk.compiled.conditions > MAX_COMPILED_CONDITIONS) {
    return structuralProblem(walk, path, `with the segments it includes, the filter has more than ${MAX_COMPILED_CONDITIONS} conditions`);
  }
  if ("all" in node)
    return node.all.length === 0
      ? TRUE
      : Prisma.sql`(${Prisma.join(
          node.all.map((child, i) => compileNode(child, `${path}.all.${i}`, walk)),
          " AND ",
        )})`;
  if ("any" in node)
    return node.any.length === 0
      ? FALSE
      : Prisma.sql`(${Prisma.join(
          node.any.map((child, i) => compileNode(child, `${path}.any.${i}`, walk)),
          " OR ",
        )})`;
  if ("not" in node) return Prisma.sql`NOT ${compileNode(node.not, `${path}.not`, walk)}`;
  if ("in_segment" in node) return compileSegment(node, path, walk);
  if ("event" in node) return compileEvent(node, path, walk);
  const compiled = compileField(node, walk.scope.properties, walk.scope.now);
  if ("problem" in compiled) return problem(walk, `${path}.${compiled.at}`, compiled.problem);
  return compiled.sql;
}

/**
 * A filter as one parameterized SQL condition on contacts `c`, never NULL (so `not` is its exact
 * complement). The organization is the caller's to add (`c.organization_id = …`); the subqueries
 * name it themselves. Problems are thrown as a 400 naming `path` and below when the scope is strict.
 */
export function compileFilter(filter: Filter, scope: FilterScope, path = "filter"): Prisma.Sql {
  try {
    return compileNode(filter, path, { scope, strict: scope.strict, stack: [], compiled: { conditions: 0 } });
  } catch (error) {
    if (error instanceof FilterProblem) throw invalidField(error.path, error.message);
    throw error;
  }
}
