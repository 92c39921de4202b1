import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestOrg, expectError, randomId, request, type TestOrg } from "@/lib/testing/api";
import { verifiedDomain } from "@/lib/testing/sending-fixtures";

const welcome = (overrides: Record<string, unknown> = {}) => ({
  name: "Welcome",
  trigger: { type: "event", event: "signed_up" },
  steps: [
    { type: "send_email", subject: "Welcome, {{first_name}}", html_content: "<p>Hi</p>", from_email: "hello@news.test" },
    { type: "wait", minutes: 1440 },
    {
      type: "condition",
      wait_result: "event",
      yes: [{ type: "send_email", subject: "Offer", html_content: "<p>Offer</p>", from_email: "hello@news.test" }],
      no: [{ type: "exit" }],
    },
  ],
  ...overrides,
});

describe("automations API", () => {
  let org: TestOrg;
  let other: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
    await verifiedDomain(org.organizationId, "news.test");
    await verifiedDomain(other.organizationId, "news.test");
  });

  it("creates a draft whose steps, branches included, carry server-given ids, and reads it back with stats", async () => {
    const created = await org.owner.api.post("/v1/automations", welcome({ id: randomId(), status: "active" }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: "Welcome",
      status: "draft",
      reentry: "never",
      sequence_mode: "marketing",
      inbox_ids: [],
      exit_filter: null,
      stats: { entered: 0, active: 0, completed: 0, exited: 0 },
    });
    const [send, wait, condition] = created.body.steps;
    const ids = [send.id, wait.id, condition.id, condition.yes[0].id, condition.no[0].id];
    expect(new Set(ids).size).toBe(5);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const fetched = await org.owner.api.get(`/v1/automations/${created.body.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body.steps[0].stats).toEqual({ entered: 0, completed: 0, current: 0, sent: 0, opened: 0, clicked: 0 });
    expect(fetched.body.steps[2].yes[0].stats).toMatchObject({ entered: 0, sent: 0 });
    expect(fetched.body.steps[1].stats).toEqual({ entered: 0, completed: 0, current: 0 });

    const list = await org.owner.api.get("/v1/automations");
    expect(list.body.data.map((a: { id: string }) => a.id)).toContain(created.body.id);
  });

  it("refuses bad trees with 400 naming the path", async () => {
    const path = async (body: unknown) => expectError(await org.owner.api.post("/v1/automations", body), 400, "VALIDATION_ERROR").details![0].path;
    expect(await path(welcome({ trigger: { type: "event", event: "bad name!" } }))).toBe("trigger.event");
    expect(await path(welcome({ steps: [{ type: "wait", minutes: 0 }] }))).toBe("steps.0.minutes");
    expect(await path(welcome({ steps: [{ type: "teleport" }] }))).toBe("steps.0.type");
    expect(
      await path(welcome({ steps: [{ type: "condition", wait_result: "event", yes: [{ type: "wait_for_event", event: "x", timeout_minutes: -1 }], no: [] }] })),
    ).toBe("steps.0.yes.0.timeout_minutes");
    expect(await path(welcome({ steps: [{ type: "condition", yes: [], no: [] }] }))).toBe("steps.0.filter");
    expect(await path(welcome({ steps: [{ type: "update_contact", set: { email: "x@example.test" } }] }))).toBe("steps.0.set.email");
    expect(await path(welcome({ steps: [{ type: "send_email", subject: "Hi", from_email: "hello@news.test" }] }))).toBe("steps.0.html_content");
    // Every list a request can grow is capped: steps in all, and the depth of conditions.
    const many = Array.from({ length: 101 }, () => ({ type: "exit" }));
    expect(await path(welcome({ steps: many }))).toBe("steps.100");
    let deep: unknown[] = [{ type: "exit" }];
    for (let i = 0; i < 6; i++) deep = [{ type: "condition", wait_result: "event", yes: deep, no: [] }];
    expect(await path(welcome({ steps: deep }))).toBe("steps.0.yes.0.yes.0.yes.0.yes.0.yes.0");
    // A body nested far beyond the cap is refused as such, not parsed to the bottom.
    const levels = 5000;
    const abyss = `[${'{"type":"condition","wait_result":"event","no":[],"yes":['.repeat(levels)}${"]}".repeat(levels)}]`;
    const rawBody = `{"name":"Deep","trigger":{"type":"event","event":"x"},"steps":${abyss}}`;
    const deepAnswer = expectError(await request("POST", "/v1/automations", { token: org.owner.token, rawBody }), 400, "VALIDATION_ERROR");
    expect(deepAnswer.details![0].path).toMatch(/^steps\.0(\.yes\.0){5}$/);
  });

  it("refuses ids of another organization, senders at unverified domains and sales mode without inboxes", async () => {
    const foreignSegment = await db.segment.create({ data: { organization_id: other.organizationId, name: "Theirs" } });
    const foreignTemplate = await db.template.create({ data: { organization_id: other.organizationId, name: "T", subject: "S", html_content: "<p>x</p>" } });
    const bad = async (body: unknown, code = "VALIDATION_ERROR") => expectError(await org.owner.api.post("/v1/automations", body), 400, code).details![0].path;
    expect(await bad(welcome({ trigger: { type: "segment_entered", segment_id: foreignSegment.id } }))).toBe("trigger.segment_id");
    expect(await bad(welcome({ steps: [{ type: "add_to_segment", segment_id: foreignSegment.id }] }))).toBe("steps.0.segment_id");
    expect(await bad(welcome({ steps: [{ type: "send_email", subject: "Hi", template_id: foreignTemplate.id, from_email: "hello@news.test" }] }))).toBe(
      "steps.0.template_id",
    );
    expect(await bad(welcome({ inbox_ids: [randomId()] }))).toBe("inbox_ids.0");
    expect(
      await bad(welcome({ steps: [{ type: "send_email", subject: "Hi", html_content: "<p>x</p>", from_email: "me@elsewhere.test" }] }), "DOMAIN_NOT_VERIFIED"),
    ).toBe("steps.0.from_email");
    expect(await bad(welcome({ steps: [{ type: "send_email", subject: "Hi", html_content: "<p>x</p>" }] }))).toBe("steps.0.from_email");
    expect(await bad(welcome({ sequence_mode: "sales" }))).toBe("inbox_ids");
    // Filters go through the one filter language: another organization's segment, a typed property
    // compared as another type, a reserved event name.
    expect(await bad(welcome({ exit_filter: { in_segment: foreignSegment.id } }))).toBe("exit_filter.in_segment");
    await org.owner.api.post("/v1/contact-properties", { key: "seats", type: "number" });
    expect(await bad(welcome({ exit_filter: { field: "metadata.seats", op: "contains", value: "x" } }))).toMatch(/^exit_filter/);
    expect(await bad(welcome({ steps: [{ type: "condition", filter: { event: "email.openedd", op: "happened" }, yes: [], no: [] }] }))).toBe(
      "steps.0.filter.event",
    );
    expect(await bad(welcome({ trigger: { type: "event", event: "automation.completed" } }))).toBe("trigger.event");
    // update_contact writes a typed property as the API would: a value of its type.
    expect(await bad(welcome({ steps: [{ type: "update_contact", set: { "metadata.seats": "many" } }] }))).toBe("steps.0.set.metadata.seats");
    expect((await org.owner.api.post("/v1/automations", welcome({ steps: [{ type: "update_contact", set: { "metadata.seats": 3 } }] }))).status).toBe(201);
    // The automation's own sender serves steps that name none.
    const fallback = await org.owner.api.post(
      "/v1/automations",
      welcome({ from_email: "team@news.test", steps: [{ type: "send_email", subject: "Hi", html_content: "<p>x</p>" }] }),
    );
    expect(fallback.status).toBe(201);
  });

  it("moves through draft, active, paused and archived; edits only drafts and paused ones, keeping step ids sent back", async () => {
    const { body: created } = await org.owner.api.post("/v1/automations", welcome());
    const id = created.id;
    expectError(await org.owner.api.post(`/v1/automations/${id}/pause`), 400, "AUTOMATION_NOT_ACTIVE");
    const active = await org.owner.api.post(`/v1/automations/${id}/activate`);
    expect(active.body).toMatchObject({ status: "active" });
    expect(active.body.activated_at).not.toBeNull();
    expect((await org.owner.api.post(`/v1/automations/${id}/activate`)).body.status).toBe("active");
    expectError(await org.owner.api.put(`/v1/automations/${id}`, { name: "Renamed" }), 400, "AUTOMATION_NOT_EDITABLE");

    expect((await org.owner.api.post(`/v1/automations/${id}/pause`)).body.status).toBe("paused");
    const [send, wait] = created.steps;
    const edited = await org.owner.api.put(`/v1/automations/${id}`, {
      name: "Renamed",
      steps: [{ id: wait.id, type: "wait", minutes: 60 }, { id: randomId(), type: "exit" }, { ...send }],
    });
    expect(edited.status).toBe(200);
    expect(edited.body.name).toBe("Renamed");
    expect(edited.body.steps[0]).toMatchObject({ id: wait.id, minutes: 60 });
    expect(edited.body.steps[2].id).toBe(send.id);
    // An id that is not one of the automation's steps is not taken: the step gets a new one.
    expect([wait.id, send.id]).not.toContain(edited.body.steps[1].id);

    const archived = await org.owner.api.delete(`/v1/automations/${id}`);
    expect(archived.body.status).toBe("archived");
    expectError(await org.owner.api.post(`/v1/automations/${id}/activate`), 400, "AUTOMATION_ARCHIVED");
    expectError(await org.owner.api.put(`/v1/automations/${id}`, { name: "Again" }), 400, "AUTOMATION_NOT_EDITABLE");
  });

  it("answers another organization's automation, and its runs, as if it did not exist", async () => {
    const { body: theirs } = await other.owner.api.post("/v1/automations", welcome());
    for (const result of [
      await org.owner.api.get(`/v1/automations/${theirs.id}`),
      await org.owner.api.put(`/v1/automations/${theirs.id}`, { name: "Mine now" }),
      await org.owner.api.delete(`/v1/automations/${theirs.id}`),
      await org.owner.api.post(`/v1/automations/${theirs.id}/activate`),
      await org.owner.api.post(`/v1/automations/${theirs.id}/pause`),
      await org.owner.api.get(`/v1/automations/${theirs.id}/runs`),
    ]) {
      expectError(result, 404, "NOT_FOUND");
    }
    const list = await org.owner.api.get("/v1/automations");
    expect(list.body.data.map((a: { id: string }) => a.id)).not.toContain(theirs.id);
    expect((await other.owner.api.get(`/v1/automations/${theirs.id}`)).body.status).toBe("draft");
    expectError(await org.owner.api.post("/v1/automations", welcome({ trigger: { type: "event", event: "x", where: { automation_id: theirs.id } } })), 400);
  });
});
