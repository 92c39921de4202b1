import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { contactPageQuery, type ContactFilters } from "@/components/contacts/contact-query";
import { selectionFilter } from "@/components/contacts/selection-filter";
import { db } from "@/lib/db";
import { runContactBulkJob } from "@/lib/services/contact-bulk-actions";
import { createTestOrg, expectError, randomId, type TestOrg } from "@/lib/testing/api";
import { activeAutomation, runsOf } from "@/lib/testing/automation-fixtures";
import { dispatchEventsOf } from "@/lib/testing/events";

/** `count` contacts of the organization carrying `tag`, written set-based; answers their ids in id order. */
async function seedContacts(organizationId: string, count: number, { tag, plan }: { tag: string; plan?: string }) {
  const rows = await db.$queryRaw<{ id: string }[]>`
    INSERT INTO contacts (organization_id, email, tags, metadata)
    SELECT ${organizationId}::uuid, ${tag} || '-' || g || '@bulk-actions.test', ARRAY[${tag}], ${JSON.stringify(plan ? { plan } : {})}::jsonb
    FROM generate_series(1, ${count}::int) g
    RETURNING id`;
  return rows.map((r) => r.id).sort();
}

const tagged = (tag: string) => ({ field: "tags", op: "contains", value: tag });

describe("POST /v1/contacts/bulk-actions", () => {
  let org: TestOrg;
  let other: TestOrg;
  let segmentId: string;
  let webhookId: string;
  beforeAll(async () => {
    [org, other] = await Promise.all([createTestOrg(), createTestOrg()]);
    segmentId = (await org.owner.api.post("/v1/segments", { name: "Picked" })).body.id;
    webhookId = (
      await db.webhook.create({
        data: {
          organization_id: org.organizationId,
          url: "https://hooks.example/x",
          events: ["contact.updated", "contact.unsubscribed"],
          secret_encrypted: "x",
        },
      })
    ).id;
  });

  const act = (body: Record<string, unknown>, as = org) => as.owner.api.post("/v1/contacts/bulk-actions", body);
  // What the webhook was handed: the recorded events, once the outbox's dispatcher has run (as the worker's loop does).
  const deliveries = async (type: string) => {
    await dispatchEventsOf(org.organizationId);
    return db.webhookDelivery.count({ where: { webhook_id: webhookId, event_type: type } });
  };

  it("adds three picked contacts to a segment and takes them out again, counting only what changed", async () => {
    const ids = await seedContacts(org.organizationId, 3, { tag: `pick-${randomUUID().slice(0, 6)}` });
    expect((await act({ action: "add_to_segment", contact_ids: ids, segment_id: segmentId })).body).toEqual({ affected: 3, job: null });
    expect((await act({ action: "add_to_segment", contact_ids: ids, segment_id: segmentId })).body.affected).toBe(0);
    expect((await org.owner.api.get(`/v1/segments/${segmentId}`)).body.contacts_count).toBe(3);
    expect((await act({ action: "remove_from_segment", contact_ids: ids.slice(0, 2), segment_id: segmentId })).body.affected).toBe(2);
    expect((await org.owner.api.get(`/v1/segments/${segmentId}`)).body.contacts_count).toBe(1);
  });

  it("starts the automations a segment triggers for the contacts it adds, once each, as the segments API does", async () => {
    const segment = (await org.owner.api.post("/v1/segments", { name: "Welcome list" })).body.id;
    const automation = await activeAutomation(org, {
      name: "Welcome series",
      trigger: { type: "segment_entered", segment_id: segment },
      steps: [{ type: "wait", minutes: 10 }],
    });
    const ids = await seedContacts(org.organizationId, 3, { tag: `enter-${randomUUID().slice(0, 6)}` });
    await act({ action: "add_to_segment", contact_ids: ids.slice(0, 1), segment_id: segment });
    expect((await act({ action: "add_to_segment", contact_ids: ids, segment_id: segment })).body.affected).toBe(2);
    expect((await runsOf(org, automation.id)).map((r) => r.contact_id).sort()).toEqual(ids);
  });

  it("adds and removes tags, keeping each contact's own first and emitting contact.updated for the changed ones", async () => {
    const tag = `tags-${randomUUID().slice(0, 6)}`;
    const ids = await seedContacts(org.organizationId, 4, { tag });
    await db.contact.update({ where: { id: ids[0] }, data: { tags: [tag, "vip"] } });
    const before = await deliveries("contact.updated");
    expect((await act({ action: "add_tags", contact_ids: ids, tags: ["vip", "spring"] })).body.affected).toBe(4);
    const first = await db.contact.findUniqueOrThrow({ where: { id: ids[0] } });
    expect(first.tags).toEqual([tag, "vip", "spring"]);
    expect((await db.contact.findUniqueOrThrow({ where: { id: ids[1] } })).tags).toEqual([tag, "vip", "spring"]);
    expect(await deliveries("contact.updated")).toBe(before + 4);
    expect((await act({ action: "add_tags", contact_ids: ids, tags: ["vip"] })).body.affected).toBe(0);
    expect((await act({ action: "remove_tags", filter: tagged(tag), tags: ["vip", "absent"] })).body.affected).toBe(4);
    expect((await db.contact.findUniqueOrThrow({ where: { id: ids[3] } })).tags).toEqual([tag, "spring"]);
    // Twenty tags is a contact's limit: one that would pass it is left as it is.
    const full = Array.from({ length: 20 }, (_, i) => `t${i}`);
    await db.contact.update({ where: { id: ids[2] }, data: { tags: full } });
    expect((await act({ action: "add_tags", contact_ids: [ids[2]], tags: ["one-more"] })).body.affected).toBe(0);
    expect((await db.contact.findUniqueOrThrow({ where: { id: ids[2] } })).tags).toEqual(full);
  });

  it("unsubscribes (keeping the first unsubscription's time) and deletes, by filter", async () => {
    const tag = `unsub-${randomUUID().slice(0, 6)}`;
    const ids = await seedContacts(org.organizationId, 3, { tag });
    const earlier = new Date("2026-01-01T00:00:00.000Z");
    await db.contact.update({ where: { id: ids[0] }, data: { subscribed: false, unsubscribed_at: earlier } });
    const unsubscribed = await deliveries("contact.unsubscribed");
    expect((await act({ action: "unsubscribe", filter: tagged(tag) })).body.affected).toBe(2);
    expect(await deliveries("contact.unsubscribed")).toBe(unsubscribed + 2);
    const rows = await db.contact.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" } });
    expect(rows.every((r) => !r.subscribed)).toBe(true);
    expect(rows[0].unsubscribed_at).toEqual(earlier);
    // Another organization's contacts matching the same filter are not touched.
    const theirs = await seedContacts(other.organizationId, 2, { tag });
    expect((await act({ action: "delete", filter: tagged(tag) })).body.affected).toBe(3);
    expect(await db.contact.count({ where: { id: { in: ids } } })).toBe(0);
    expect(await db.contact.count({ where: { id: { in: theirs }, subscribed: true } })).toBe(2);
  });

  it("refuses a malformed request, ids of no contact of the organization, and a dynamic segment", async () => {
    const [mine] = await seedContacts(org.organizationId, 1, { tag: `refuse-${randomUUID().slice(0, 6)}` });
    const [theirs] = await seedContacts(other.organizationId, 1, { tag: "theirs" });
    const paths = async (body: Record<string, unknown>) => expectError(await act(body), 400, "VALIDATION_ERROR").details!.map((d) => d.path);
    expect(await paths({ action: "unsubscribe" })).toEqual(["contact_ids"]);
    expect(await paths({ action: "unsubscribe", contact_ids: [mine], filter: { all: [] } })).toEqual(["contact_ids"]);
    expect(await paths({ action: "add_to_segment", contact_ids: [mine] })).toEqual(["segment_id"]);
    expect(await paths({ action: "add_tags", contact_ids: [mine] })).toEqual(["tags"]);
    expect(await paths({ action: "add_tags", contact_ids: [mine], tags: ["Upper"] })).toEqual(["tags.0"]);
    expect(await paths({ action: "archive", contact_ids: [mine] })).toEqual(["action"]);
    expect(await paths({ action: "delete", contact_ids: Array.from({ length: 1001 }, randomId) })).toEqual(["contact_ids"]);
    expect(await paths({ action: "delete", filter: { field: "nope", op: "eq", value: 1 } })).toEqual(["filter.field"]);
    expect(await paths({ action: "delete", contact_ids: [mine, theirs] })).toEqual(["contact_ids.1"]);
    const theirSegment = (await other.owner.api.post("/v1/segments", { name: "Theirs" })).body.id;
    expect(await paths({ action: "add_to_segment", contact_ids: [mine], segment_id: theirSegment })).toEqual(["segment_id"]);
    const dynamic = (await org.owner.api.post("/v1/segments", { name: "Dynamic", filter: tagged("x") })).body.id;
    expectError(await act({ action: "add_to_segment", contact_ids: [mine], segment_id: dynamic }), 409, "SEGMENT_IS_DYNAMIC");
    expect(await db.contact.count({ where: { id: { in: [mine, theirs] } } })).toBe(2);
  });
});

describe("a bulk action on a large selection", () => {
  let org: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg();
  });
  const act = (body: Record<string, unknown>) => org.owner.api.post("/v1/contacts/bulk-actions", body);
  const progress = async (jobId: string) => (await org.owner.api.get(`/v1/contacts/bulk-actions/jobs/${jobId}`)).body;

  it("becomes a job that the worker carries out in batches, with its progress, resuming after its last batch", async () => {
    const tag = `large-${randomUUID().slice(0, 6)}`;
    await seedContacts(org.organizationId, 2500, { tag, plan: "pro" });
    const started = await act({ action: "add_tags", filter: { all: [tagged(tag), { field: "metadata.plan", op: "eq", value: "pro" }] }, tags: ["spring"] });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ affected: 0, job: { action: "add_tags", status: "queued", total: 2500, processed: 0, affected: 0 } });
    const jobId = started.body.job.id;
    // Nothing is changed by the request itself.
    expect(await db.contact.count({ where: { organization_id: org.organizationId, tags: { has: "spring" } } })).toBe(0);

    // One batch a run here, then the task queues the rest of the job again.
    expect(await runContactBulkJob(jobId, { batches: 1 })).toBe("more");
    expect(await progress(jobId)).toMatchObject({ status: "running", total: 2500, processed: 1000, affected: 1000, completed_at: null });
    const queued = await db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      WHERE t.identifier = 'contacts:bulk-action' AND j.payload->>'jobId' = ${jobId}`;
    expect(queued[0].n).toBe(2);
    // A run that runs twice (a retry beside a re-queued run) changes nobody twice.
    const [a, b] = await Promise.all([runContactBulkJob(jobId), runContactBulkJob(jobId)]);
    expect([a, b]).toEqual(["done", "done"]);
    expect(await progress(jobId)).toMatchObject({ status: "completed", processed: 2500, affected: 2500, error: null, completed_at: expect.any(String) });
    expect(await db.contact.count({ where: { organization_id: org.organizationId, tags: { has: "spring" } } })).toBe(2500);
  });

  it("fails with the reason when its segment is deleted half-way", async () => {
    const tag = `gone-${randomUUID().slice(0, 6)}`;
    await seedContacts(org.organizationId, 1500, { tag });
    const segment = (await org.owner.api.post("/v1/segments", { name: "Soon gone" })).body.id;
    const { job } = (await act({ action: "add_to_segment", filter: tagged(tag), segment_id: segment })).body;
    await runContactBulkJob(job.id, { batches: 1 });
    await org.owner.api.delete(`/v1/segments/${segment}`);
    expect(await runContactBulkJob(job.id)).toBe("done");
    expect(await progress(job.id)).toMatchObject({ status: "failed", processed: 1000, error: "The segment no longer exists" });
  });

  it("allows three jobs at once per organization, then answers 429 with Retry-After; another's job is 404", async () => {
    const tag = `cap-${randomUUID().slice(0, 6)}`;
    await seedContacts(org.organizationId, 1001, { tag });
    await db.contactBulkJob.updateMany({ where: { organization_id: org.organizationId }, data: { status: "completed" } });
    const jobs = [];
    for (let i = 0; i < 3; i++) jobs.push((await act({ action: "unsubscribe", filter: tagged(tag) })).body.job.id);
    const refused = await act({ action: "unsubscribe", filter: tagged(tag) });
    expectError(refused, 429, "RATE_LIMITED");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const other = await createTestOrg();
    expectError(await other.owner.api.get(`/v1/contacts/bulk-actions/jobs/${jobs[0]}`), 404, "NOT_FOUND");
    expectError(await org.owner.api.get(`/v1/contacts/bulk-actions/jobs/not-a-uuid`), 400, "VALIDATION_ERROR");
  });
});

describe("select all matching", () => {
  it("turns the list's filters into a filter that matches exactly the contacts the list shows", async () => {
    const org = await createTestOrg();
    const tag = `match-${randomUUID().slice(0, 6)}`;
    await org.owner.api.post("/v1/contacts/bulk", {
      contacts: [
        { email: `ann-${tag}@example.test`, first_name: "Ann", tags: ["lead", "vip"] },
        { email: `bob-${tag}@example.test`, last_name: "Annson", tags: ["lead"] },
        { email: `cy-${tag}@example.test`, first_name: "Cy", tags: ["lead"], subscribed: false },
        { email: `dee_50%-${tag}@example.test`, tags: [] },
      ],
    });
    const segment = (await org.owner.api.post("/v1/segments", { name: "Some" })).body.id;
    await org.owner.api.post(`/v1/segments/${segment}/contacts`, { emails: [`ann-${tag}@example.test`, `cy-${tag}@example.test`] });
    const cases: ContactFilters[] = [
      { search: "", subscribed: "", tags: [], segment_id: "", filter: "" },
      { search: "ann", subscribed: "", tags: [], segment_id: "", filter: "" },
      { search: "_50%", subscribed: "", tags: [], segment_id: "", filter: "" },
      { search: "", subscribed: "true", tags: ["lead"], segment_id: "", filter: "" },
      { search: "", subscribed: "", tags: ["lead", "vip"], segment_id: "", filter: "" },
      { search: "", subscribed: "false", tags: [], segment_id: segment, filter: "" },
      { search: "", subscribed: "", tags: [], segment_id: "", filter: JSON.stringify({ field: "first_name", op: "exists" }) },
    ];
    for (const filters of cases) {
      // As the dashboard asks: empty parameters left out.
      const query = Object.entries(contactPageQuery(filters, 100, 0)).filter(([, value]) => value !== "");
      const listed = await org.owner.api.get(`/v1/contacts?${new URLSearchParams(query.map(([key, value]) => [key, String(value)]))}`);
      const matched = await org.owner.api.get(`/v1/contacts?limit=100&filter=${encodeURIComponent(JSON.stringify(selectionFilter(filters)))}`);
      const emails = (answer: typeof listed) => {
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        return (answer.body.contacts as { email: string }[]).map((c) => c.email).sort();
      };
      expect(emails(matched), JSON.stringify(filters)).toEqual(emails(listed));
    }
  });
});
