import { Prisma } from "@/lib/db";
import { CONTACT_JSON_SQL } from "@/lib/events/contact-json-sql";
import { recordEventsCtes } from "@/lib/events/sql";
import { recordStep } from "../history";
import { end, moveTo } from "../run-state";
import { historyAt, type StepExecutor } from "./context";
import { enterStaticSegment } from "../segment-entry";

const METADATA = "metadata.";

const UPDATED_EVENTS = Prisma.raw(
  recordEventsCtes(
    "updated_events",
    ["organization_id", "contact_id", "name", "properties", "source", "automation_id", "occurred_at", "payload"],
    `SELECT c.organization_id, c.id, 'contact.updated', jsonb_build_object('changed', to_jsonb(c.fields)), 'automation', c.by_automation, now(),
       (${CONTACT_JSON_SQL})::jsonb
     FROM changed c WHERE cardinality(c.fields) > 0`,
  ),
);

/**
 * `update_contact`: `set` names filter fields (first_name, last_name, metadata.<key>; null removes
 * a metadata key), tags are added and removed; one UPDATE for every run of the group.
 */
export const updateContact: StepExecutor = async (ctx, runs) => {
  const { step, tx, automation } = ctx;
  if (step.type !== "update_contact") return;
  const fresh = await recordStep(
    tx,
    historyAt(ctx),
    runs.map((run) => ({ runId: run.id, outcome: "updated" })),
  );
  const contactIds = runs.filter((run) => fresh.has(run.id)).map((run) => run.contact_id);
  const set = step.set ?? {};
  const named = (field: string) => Object.hasOwn(set, field);
  const metadata = Object.entries(set).filter(([field]) => field.startsWith(METADATA));
  const put = Object.fromEntries(metadata.filter(([, value]) => value !== null).map(([field, value]) => [field.slice(METADATA.length), value]));
  const drop = metadata.filter(([, value]) => value === null).map(([field]) => field.slice(METADATA.length));
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  if (contactIds.length > 0) {
    // The change is a fact about each contact that changed: `contact.updated` (naming the fields, as
    // the API's does, with the contact record as its webhooks' data), recorded in the same statement.
    await tx.$executeRaw`
      WITH before AS (
        SELECT c.id, c.first_name, c.last_name, c.metadata, c.tags FROM contacts c
        WHERE c.organization_id = ${automation.organization_id}::uuid AND c.id = ANY(${contactIds}::uuid[])
      ),
      updated AS (
        UPDATE contacts c SET
          first_name = CASE WHEN ${named("first_name")} THEN ${text(set.first_name)} ELSE c.first_name END,
          last_name = CASE WHEN ${named("last_name")} THEN ${text(set.last_name)} ELSE c.last_name END,
          metadata = (c.metadata || ${JSON.stringify(put)}::jsonb) - ${drop}::text[],
          tags = ARRAY(
            SELECT t FROM unnest(c.tags || ${step.add_tags ?? []}::text[]) WITH ORDINALITY AS u(t, n)
            WHERE t <> ALL(${step.remove_tags ?? []}::text[]) GROUP BY t ORDER BY min(n)),
          updated_at = now()
        WHERE c.organization_id = ${automation.organization_id}::uuid AND c.id = ANY(${contactIds}::uuid[])
        RETURNING c.*
      ),
      changed AS (
        SELECT c.*, ${automation.id}::uuid AS by_automation, array_remove(ARRAY[
            CASE WHEN c.first_name IS DISTINCT FROM b.first_name THEN 'first_name' END,
            CASE WHEN c.last_name IS DISTINCT FROM b.last_name THEN 'last_name' END,
            CASE WHEN c.metadata IS DISTINCT FROM b.metadata THEN 'metadata' END,
            CASE WHEN c.tags IS DISTINCT FROM b.tags THEN 'tags' END], NULL) AS fields
        FROM updated c JOIN before b ON b.id = c.id
      ),
      ${UPDATED_EVENTS}
      SELECT count(*) FROM changed`;
  }
  for (const run of runs) moveTo(run, ctx.next, ctx.now);
};

/**
 * `add_to_segment` / `remove_from_segment`, for static segments. A contact this adds to a segment
 * enters the automations that segment triggers, as if added through the API. A segment deleted
 * since the automation was saved: the step is skipped.
 */
export const changeSegment: StepExecutor = async (ctx, runs) => {
  const { step, tx, automation } = ctx;
  if (step.type !== "add_to_segment" && step.type !== "remove_from_segment") return;
  const organizationId = automation.organization_id;
  const [segment] = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM segments WHERE id = ${step.segment_id}::uuid AND organization_id = ${organizationId}::uuid`;
  const adding = step.type === "add_to_segment";
  const fresh = await recordStep(
    tx,
    historyAt(ctx),
    runs.map((run) => ({ runId: run.id, outcome: segment ? (adding ? "added" : "removed") : "skipped" })),
  );
  const contactIds = runs.filter((run) => fresh.has(run.id)).map((run) => run.contact_id);
  if (segment && contactIds.length > 0) {
    if (adding) {
      const added = await tx.$queryRaw<{ contact_id: string }[]>`
        INSERT INTO segment_contacts (segment_id, contact_id, organization_id)
        SELECT ${segment.id}::uuid, id, ${organizationId}::uuid FROM unnest(${contactIds}::uuid[]) AS id
        ON CONFLICT DO NOTHING
        RETURNING contact_id`;
      await enterStaticSegment(
        tx,
        organizationId,
        segment.id,
        added.map((row) => row.contact_id),
      );
    } else {
      await tx.$executeRaw`
        DELETE FROM segment_contacts
        WHERE segment_id = ${segment.id}::uuid AND organization_id = ${organizationId}::uuid AND contact_id = ANY(${contactIds}::uuid[])`;
    }
  }
  for (const run of runs) moveTo(run, ctx.next, ctx.now);
};

/** `exit`: the run ends here. */
export const exitHere: StepExecutor = async (ctx, runs) => {
  await recordStep(
    ctx.tx,
    historyAt(ctx),
    runs.map((run) => ({ runId: run.id, outcome: "exited" })),
  );
  for (const run of runs) end(run, "exited", "exit_step", ctx.now);
};
