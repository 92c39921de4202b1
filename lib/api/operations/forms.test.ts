import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestOrg, expectError, randomId, type TestOrg } from "@/lib/testing/api";
import { sinkInbox } from "@/lib/testing/sending-fixtures";

describe("/v1/forms", () => {
  let org: TestOrg;
  let other: TestOrg;
  let inboxId: string;
  let topicId: string;
  let segmentId: string;

  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
    // The sink is never reached here: the inbox only proves a sender.
    inboxId = (await sinkInbox(org.organizationId, { host: "127.0.0.1", port: 1 } as never)).id;
    topicId = (await org.owner.api.post("/v1/topics", { name: "News", default_subscription: "opt_in" })).body.id;
    segmentId = (await org.owner.api.post("/v1/segments", { name: "Signups" })).body.id;
    await org.owner.api.post("/v1/contact-properties", { key: "company_size", label: "Company size", type: "number" });
  });

  it("creates a form with double opt-in by default, email first, its URLs and an embeddable snippet", async () => {
    const created = await org.owner.api.post("/v1/forms", {
      name: "Newsletter",
      fields: ["first_name", "company_size"],
      segment_id: segmentId,
      topic_ids: [topicId],
      inbox_id: inboxId,
      redirect_url: "https://acme.example/thanks",
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: "Newsletter",
      fields: ["email", "first_name", "company_size"],
      double_opt_in: true,
      segment_id: segmentId,
      topic_ids: [topicId],
      submissions_count: 0,
      confirmed_count: 0,
    });
    expect(created.body.confirmation_html).toContain("{{confirm_url}}");
    expect(created.body.hosted_url).toMatch(new RegExp(`/f/${created.body.id}$`));
    expect(created.body.submit_url).toBe(`${created.body.hosted_url}/submit`);
    expect(created.body.embed_html).toContain(`action="${created.body.submit_url}"`);
    expect(created.body.embed_html).toContain('<input type="number" name="company_size">');
    expect(created.body.embed_html).toContain('name="_hp"');
    const listed = await org.owner.api.get("/v1/forms");
    expect(listed.body.data.map((f: { id: string }) => f.id)).toContain(created.body.id);
    expect((await org.owner.api.get(`/v1/forms/${created.body.id}`)).body).toEqual(created.body);
  });

  it("refuses what cannot work, naming the field, and writes nothing", async () => {
    const theirTopic = (await other.owner.api.post("/v1/topics", { name: "Theirs", default_subscription: "opt_in" })).body.id;
    const dynamic = (await org.owner.api.post("/v1/segments", { name: "Dyn", filter: { field: "first_name", op: "exists" } })).body.id;
    const before = await db.form.count({ where: { organization_id: org.organizationId } });
    for (const [body, path] of [
      [{ inbox_id: inboxId }, "name"],
      [{ name: "x", fields: ["favourite_colour"], inbox_id: inboxId }, "fields.0"],
      [{ name: "x", topic_ids: [theirTopic], inbox_id: inboxId }, "topic_ids.0"],
      [{ name: "x", segment_id: dynamic, inbox_id: inboxId }, "segment_id"],
      [{ name: "x", segment_id: randomId(), inbox_id: inboxId }, "segment_id"],
      [{ name: "x" }, "from_email"],
      [{ name: "x", inbox_id: inboxId, confirmation_html: "<p>No link</p>" }, "confirmation_html"],
      [{ name: "x", inbox_id: inboxId, redirect_url: "javascript:alert(1)" }, "redirect_url"],
    ] as const) {
      const error = expectError(await org.owner.api.post("/v1/forms", body), 400);
      expect(
        error.details?.map((d) => d.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    expectError(await org.owner.api.post("/v1/forms", { name: "x", from_email: "news@unverified.example" }), 400, "DOMAIN_NOT_VERIFIED");
    expect(await db.form.count({ where: { organization_id: org.organizationId } })).toBe(before);
    // Without double opt-in no sender is needed.
    expect((await org.owner.api.post("/v1/forms", { name: "Open", double_opt_in: false })).status).toBe(201);
  });

  it("updates, keeps it the organization's own, and deletes", async () => {
    const { body } = await org.owner.api.post("/v1/forms", { name: "Mine", inbox_id: inboxId });
    const updated = await org.owner.api.put(`/v1/forms/${body.id}`, { name: "Renamed", double_opt_in: false, redirect_url: null });
    expect(updated.body).toMatchObject({ name: "Renamed", double_opt_in: false, inbox_id: inboxId });
    expectError(await other.owner.api.get(`/v1/forms/${body.id}`), 404, "NOT_FOUND");
    expectError(await other.owner.api.put(`/v1/forms/${body.id}`, { name: "Stolen" }), 404, "NOT_FOUND");
    expectError(await other.owner.api.delete(`/v1/forms/${body.id}`), 404, "NOT_FOUND");
    expectError(await org.owner.api.get("/v1/forms/not-a-uuid"), 400, "VALIDATION_ERROR");
    expect((await org.owner.api.delete(`/v1/forms/${body.id}`)).body).toEqual({ success: true });
    expectError(await org.owner.api.get(`/v1/forms/${body.id}`), 404, "NOT_FOUND");
  });
});
