import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { BroadcastStatus } from "@/lib/generated/prisma/enums";
import { client, createTestOrg, expectError, randomId, type TestOrg } from "@/lib/testing/api";

const setStatus = (id: string, status: BroadcastStatus) => db.broadcast.update({ where: { id }, data: { status } });

/** The ids of a broadcast's steps in position order, and the positions themselves. */
async function order(broadcastId: string) {
  const steps = await db.sequenceStep.findMany({ where: { broadcast_id: broadcastId }, orderBy: { position: "asc" } });
  return { ids: steps.map((s) => s.id), positions: steps.map((s) => s.position) };
}

describe("Sequence steps", () => {
  let org: TestOrg;
  let other: TestOrg;
  let templateId: string;
  let theirTemplateId: string;
  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
    templateId = (await db.template.create({ data: { organization_id: org.organizationId, name: "T", subject: "S" } })).id;
    theirTemplateId = (await db.template.create({ data: { organization_id: other.organizationId, name: "T", subject: "S" } })).id;
  });

  const newBroadcast = async (target: TestOrg = org) =>
    (await target.owner.api.post("/v1/broadcasts", { name: "Sequence", subject: "Hi", from_email: "a@example.com" })).body.id as string;

  const addStep = (broadcastId: string, body: Record<string, unknown> = {}, target: TestOrg = org) =>
    target.owner.api.post(`/v1/broadcasts/${broadcastId}/steps`, { delay_minutes: 1440, text_content: "Following up", ...body });

  async function withSteps(count: number, target: TestOrg = org) {
    const broadcastId = await newBroadcast(target);
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push((await addStep(broadcastId, { text_content: `step ${i + 1}` }, target)).body.id);
    return { broadcastId, ids };
  }

  describe("POST /v1/broadcasts/{id}/steps", () => {
    it("creates a step (201) at the end of the sequence", async () => {
      const broadcastId = await newBroadcast();
      const first = await addStep(broadcastId, {
        delay_minutes: 0,
        subject: "Re: Hi",
        html_content: "<p>Bump</p>",
        text_content: null,
        id: randomId(),
        broadcast_id: randomId(),
        organization_id: other.organizationId,
      });
      expect(first.status).toBe(201);
      expect(first.body).toEqual({
        id: expect.any(String),
        broadcast_id: broadcastId,
        position: 1,
        delay_minutes: 0,
        delay_business_days: null,
        subject: "Re: Hi",
        html_content: "<p>Bump</p>",
        text_content: null,
        content_json: null,
        template_id: null,
        track_opens: true,
        track_clicks: true,
        utm: null,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        updated_at: expect.any(String),
      });
      const second = await addStep(broadcastId, { template_id: templateId, text_content: undefined });
      expect(second.body).toMatchObject({ position: 2, template_id: templateId, subject: null, text_content: null });
      expect((await db.sequenceStep.findUniqueOrThrow({ where: { id: first.body.id } })).organization_id).toBe(org.organizationId);
    });

    it("inserts at a given position and moves later steps down", async () => {
      const { broadcastId, ids } = await withSteps(3);
      const atStart = await addStep(broadcastId, { position: 1 });
      expect(atStart.body.position).toBe(1);
      const middle = await addStep(broadcastId, { position: 3 });
      const atEnd = await addStep(broadcastId, { position: 6 });
      expect(await order(broadcastId)).toEqual({
        ids: [atStart.body.id, ids[0], middle.body.id, ids[1], ids[2], atEnd.body.id],
        positions: [1, 2, 3, 4, 5, 6],
      });
    });

    it("keeps positions 1..n when steps are added at the same time", async () => {
      const { broadcastId } = await withSteps(1);
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => addStep(broadcastId, i % 2 === 0 ? { position: 1 } : {})));
      expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
      expect((await order(broadcastId)).positions).toEqual([1, 2, 3, 4, 5, 6, 7]);
    });

    it("refuses a position past the end of the sequence", async () => {
      const { broadcastId } = await withSteps(2);
      const error = expectError(await addStep(broadcastId, { position: 4 }), 400, "VALIDATION_ERROR");
      expect(error.details).toEqual([{ path: "position", message: "must be from 1 to 3" }]);
      expect((await order(broadcastId)).positions).toEqual([1, 2]);
    });

    it("refuses another organization's template with 400 naming template_id", async () => {
      const broadcastId = await newBroadcast();
      for (const id of [theirTemplateId, randomId()]) {
        const error = expectError(await addStep(broadcastId, { template_id: id }), 400, "VALIDATION_ERROR");
        expect(error.details).toEqual([{ path: "template_id", message: expect.any(String) }]);
      }
      expect(await db.sequenceStep.count({ where: { broadcast_id: broadcastId } })).toBe(0);
    });

    it.each([
      ["delay_minutes", { delay_minutes: undefined }],
      ["delay_minutes", { delay_minutes: -1 }],
      ["delay_minutes", { delay_minutes: 1.5 }],
      ["delay_minutes", { delay_minutes: "60" }],
      ["delay_minutes", { delay_minutes: 525_601 }],
      ["position", { position: 0 }],
      ["position", { position: 2.5 }],
      ["position", { position: "1" }],
      ["subject", { subject: "x".repeat(999) }],
      ["html_content", { html_content: "x".repeat(1_000_001) }],
      ["text_content", { text_content: "a\u0000" }],
      ["template_id", { template_id: "tpl" }],
      ["html_content", { text_content: undefined }],
      ["html_content", { text_content: null, html_content: "  " }],
      ["html_content", { text_content: "", template_id: null }],
    ])("refuses case %# with 400 naming %s", async (path, patch) => {
      const broadcastId = await newBroadcast();
      const error = expectError(await addStep(broadcastId, patch), 400, "VALIDATION_ERROR");
      expect(error.details?.map((d) => d.path)).toContain(path);
      expect(await db.sequenceStep.count({ where: { broadcast_id: broadcastId } })).toBe(0);
    });

    it.each(["sending", "sent", "cancelled", "failed"] as const)("refuses to add a step to a %s broadcast", async (status) => {
      const { broadcastId } = await withSteps(1);
      await setStatus(broadcastId, status);
      expectError(await addStep(broadcastId), 400, "BROADCAST_NOT_EDITABLE");
      expect(await db.sequenceStep.count({ where: { broadcast_id: broadcastId } })).toBe(1);
    });

    it("adds steps to a scheduled broadcast", async () => {
      const broadcastId = await newBroadcast();
      await setStatus(broadcastId, "scheduled");
      expect((await addStep(broadcastId)).status).toBe(201);
    });

    it("answers 404 for missing and foreign broadcasts without creating anything, 400 for malformed ids, 401 without a credential", async () => {
      const foreign = await newBroadcast(other);
      expectError(await addStep(randomId()), 404, "NOT_FOUND");
      expectError(await addStep(foreign), 404, "NOT_FOUND");
      expect(expectError(await addStep("nope"), 400, "VALIDATION_ERROR").details?.[0].path).toBe("broadcastId");
      expectError(await client(null).post(`/v1/broadcasts/${foreign}/steps`, { delay_minutes: 1, text_content: "x" }), 401, "UNAUTHORIZED");
      expect(await db.sequenceStep.count({ where: { broadcast_id: foreign } })).toBe(0);
    });
  });

  describe("GET /v1/broadcasts/{id}/steps", () => {
    it("lists the steps in sequence order", async () => {
      const { broadcastId, ids } = await withSteps(3);
      const inserted = await addStep(broadcastId, { position: 2 });
      const list = await org.owner.api.get(`/v1/broadcasts/${broadcastId}/steps`);
      expect(list.status).toBe(200);
      expect(list.body.object).toBe("list");
      expect(list.body.has_more).toBe(false);
      expect(list.body.data.map((s: { id: string }) => s.id)).toEqual([ids[0], inserted.body.id, ids[1], ids[2]]);
      expect(list.body.data.map((s: { position: number }) => s.position)).toEqual([1, 2, 3, 4]);
      expect(list.body.data[1]).toEqual(inserted.body);
      const empty = await org.owner.api.get(`/v1/broadcasts/${await newBroadcast()}/steps`);
      expect(empty.body).toEqual({ object: "list", has_more: false, data: [] });
    });

    it("lists the steps of a broadcast in any status", async () => {
      const { broadcastId } = await withSteps(2);
      await setStatus(broadcastId, "sent");
      expect((await org.owner.api.get(`/v1/broadcasts/${broadcastId}/steps`)).body.data).toHaveLength(2);
    });

    it("answers 404 for missing and foreign broadcasts, 400 for malformed ids, 401 without a credential", async () => {
      const foreign = await withSteps(1, other);
      expectError(await org.owner.api.get(`/v1/broadcasts/${randomId()}/steps`), 404, "NOT_FOUND");
      expectError(await org.owner.api.get(`/v1/broadcasts/${foreign.broadcastId}/steps`), 404, "NOT_FOUND");
      expectError(await org.owner.api.get(`/v1/broadcasts/x/steps`), 400, "VALIDATION_ERROR");
      expectError(await client(null).get(`/v1/broadcasts/${foreign.broadcastId}/steps`), 401, "UNAUTHORIZED");
    });
  });

  describe("PUT /v1/broadcasts/{id}/steps/{stepId}", () => {
    const put = (broadcastId: string, stepId: string, body: Record<string, unknown>, target = org) =>
      target.owner.api.put(`/v1/broadcasts/${broadcastId}/steps/${stepId}`, body);

    it("changes only the given fields", async () => {
      const { broadcastId, ids } = await withSteps(2);
      const updated = await put(broadcastId, ids[1], { delay_minutes: 30, subject: "New", html_content: "<p>h</p>", template_id: templateId });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({
        id: ids[1],
        broadcast_id: broadcastId,
        position: 2,
        delay_minutes: 30,
        subject: "New",
        html_content: "<p>h</p>",
        text_content: "step 2",
        template_id: templateId,
      });
      const cleared = await put(broadcastId, ids[1], { subject: null, text_content: null, html_content: null });
      expect(cleared.body).toMatchObject({ subject: null, text_content: null, html_content: null, template_id: templateId, delay_minutes: 30 });
      expect((await put(broadcastId, ids[1], {})).status).toBe(200);
    });

    it("moves a step up or down and shifts the steps between", async () => {
      const { broadcastId, ids } = await withSteps(5);
      const [a, b, c, d, e] = ids;
      expect((await put(broadcastId, d, { position: 2 })).body.position).toBe(2);
      expect(await order(broadcastId)).toEqual({ ids: [a, d, b, c, e], positions: [1, 2, 3, 4, 5] });
      await put(broadcastId, a, { position: 5 });
      expect(await order(broadcastId)).toEqual({ ids: [d, b, c, e, a], positions: [1, 2, 3, 4, 5] });
      await put(broadcastId, c, { position: 3 });
      expect(await order(broadcastId)).toEqual({ ids: [d, b, c, e, a], positions: [1, 2, 3, 4, 5] });
      await put(broadcastId, e, { position: 1, delay_minutes: 5 });
      expect(await order(broadcastId)).toEqual({ ids: [e, d, b, c, a], positions: [1, 2, 3, 4, 5] });
    });

    it("refuses a position past the last step", async () => {
      const { broadcastId, ids } = await withSteps(3);
      const error = expectError(await put(broadcastId, ids[0], { position: 4 }), 400, "VALIDATION_ERROR");
      expect(error.details).toEqual([{ path: "position", message: "must be from 1 to 3" }]);
      expect((await order(broadcastId)).ids).toEqual(ids);
    });

    it("refuses a change that leaves the step with nothing to send", async () => {
      const { broadcastId, ids } = await withSteps(1);
      const error = expectError(await put(broadcastId, ids[0], { text_content: null }), 400, "VALIDATION_ERROR");
      expect(error.details?.[0].path).toBe("html_content");
      expect((await db.sequenceStep.findUniqueOrThrow({ where: { id: ids[0] } })).text_content).toBe("step 1");
    });

    it("refuses another organization's template with 400 naming template_id", async () => {
      const { broadcastId, ids } = await withSteps(1);
      const error = expectError(await put(broadcastId, ids[0], { template_id: theirTemplateId }), 400, "VALIDATION_ERROR");
      expect(error.details).toEqual([{ path: "template_id", message: expect.any(String) }]);
      expect((await db.sequenceStep.findUniqueOrThrow({ where: { id: ids[0] } })).template_id).toBeNull();
    });

    it.each([
      ["delay_minutes", { delay_minutes: -5 }],
      ["delay_minutes", { delay_minutes: null }],
      ["delay_minutes", { delay_minutes: 10 ** 9 }],
      ["position", { position: 0 }],
      ["position", { position: null }],
      ["subject", { subject: 3 }],
      ["template_id", { template_id: "x" }],
      ["html_content", { html_content: "\u0000" }],
    ])("refuses case %# with 400 naming %s and changes nothing", async (path, body) => {
      const { broadcastId, ids } = await withSteps(1);
      const before = await db.sequenceStep.findUniqueOrThrow({ where: { id: ids[0] } });
      const error = expectError(await put(broadcastId, ids[0], body), 400, "VALIDATION_ERROR");
      expect(error.details?.map((d) => d.path)).toContain(path);
      expect(await db.sequenceStep.findUniqueOrThrow({ where: { id: ids[0] } })).toEqual(before);
    });

    it.each(["sending", "sent"] as const)("refuses to change a step of a %s broadcast", async (status) => {
      const { broadcastId, ids } = await withSteps(2);
      await setStatus(broadcastId, status);
      const before = await db.sequenceStep.findMany({ where: { broadcast_id: broadcastId }, orderBy: { position: "asc" } });
      expectError(await put(broadcastId, ids[1], { position: 1, delay_minutes: 1 }), 400, "BROADCAST_NOT_EDITABLE");
      expect(await db.sequenceStep.findMany({ where: { broadcast_id: broadcastId }, orderBy: { position: "asc" } })).toEqual(before);
    });

    it("answers 404 for a step of another broadcast or organization without changing it, 401 without a credential", async () => {
      const mine = await withSteps(1);
      const sibling = await withSteps(1);
      const foreign = await withSteps(1, other);
      const foreignBefore = await db.sequenceStep.findUniqueOrThrow({ where: { id: foreign.ids[0] } });
      expectError(await put(mine.broadcastId, randomId(), { delay_minutes: 1 }), 404, "NOT_FOUND");
      expectError(await put(randomId(), mine.ids[0], { delay_minutes: 1 }), 404, "NOT_FOUND");
      expectError(await put(mine.broadcastId, sibling.ids[0], { delay_minutes: 1 }), 404, "NOT_FOUND");
      expectError(await put(mine.broadcastId, foreign.ids[0], { delay_minutes: 1 }), 404, "NOT_FOUND");
      expectError(await put(foreign.broadcastId, foreign.ids[0], { delay_minutes: 1 }), 404, "NOT_FOUND");
      expectError(await client(null).put(`/v1/broadcasts/${foreign.broadcastId}/steps/${foreign.ids[0]}`, { delay_minutes: 1 }), 401, "UNAUTHORIZED");
      expect(await db.sequenceStep.findUniqueOrThrow({ where: { id: foreign.ids[0] } })).toEqual(foreignBefore);
      expect((await db.sequenceStep.findUniqueOrThrow({ where: { id: sibling.ids[0] } })).delay_minutes).toBe(1440);
      expect(expectError(await put(mine.broadcastId, "x", {}), 400, "VALIDATION_ERROR").details?.[0].path).toBe("stepId");
    });
  });

  describe("DELETE /v1/broadcasts/{id}/steps/{stepId}", () => {
    const del = (broadcastId: string, stepId: string, target = org) => target.owner.api.delete(`/v1/broadcasts/${broadcastId}/steps/${stepId}`);

    it("deletes a step and closes the gap", async () => {
      const { broadcastId, ids } = await withSteps(4);
      const deleted = await del(broadcastId, ids[1]);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ success: true });
      expect(await order(broadcastId)).toEqual({ ids: [ids[0], ids[2], ids[3]], positions: [1, 2, 3] });
      await del(broadcastId, ids[3]);
      await del(broadcastId, ids[0]);
      expect(await order(broadcastId)).toEqual({ ids: [ids[2]], positions: [1] });
      expectError(await del(broadcastId, ids[0]), 404, "NOT_FOUND");
    });

    it.each(["sending", "sent", "cancelled"] as const)("refuses to delete a step of a %s broadcast", async (status) => {
      const { broadcastId, ids } = await withSteps(2);
      await setStatus(broadcastId, status);
      expectError(await del(broadcastId, ids[0]), 400, "BROADCAST_NOT_EDITABLE");
      expect(await order(broadcastId)).toEqual({ ids, positions: [1, 2] });
    });

    it("answers 404 for a step of another broadcast or organization without deleting it, 400 for malformed ids, 401 without a credential", async () => {
      const mine = await withSteps(1);
      const sibling = await withSteps(1);
      const foreign = await withSteps(2, other);
      expectError(await del(mine.broadcastId, randomId()), 404, "NOT_FOUND");
      expectError(await del(mine.broadcastId, sibling.ids[0]), 404, "NOT_FOUND");
      expectError(await del(mine.broadcastId, foreign.ids[0]), 404, "NOT_FOUND");
      expectError(await del(foreign.broadcastId, foreign.ids[0]), 404, "NOT_FOUND");
      expectError(await del("x", mine.ids[0]), 400, "VALIDATION_ERROR");
      expectError(await client(null).delete(`/v1/broadcasts/${foreign.broadcastId}/steps/${foreign.ids[0]}`), 401, "UNAUTHORIZED");
      expect(await order(foreign.broadcastId)).toEqual({ ids: foreign.ids, positions: [1, 2] });
      expect(await order(sibling.broadcastId)).toEqual({ ids: sibling.ids, positions: [1] });
    });
  });
});
