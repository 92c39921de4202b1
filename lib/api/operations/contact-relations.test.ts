import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { contactSegments } from "@/lib/schemas/contact-relations";
import { contactTopics } from "@/lib/schemas/topics";
import { createTestOrg, expectError, randomId, type TestOrg } from "@/lib/testing/api";

describe("a contact's segments, topics and emails", () => {
  let org: TestOrg;
  let other: TestOrg;
  let contactId: string;
  let theirs: string;
  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
    contactId = (await org.owner.api.post("/v1/contacts", { email: "member@relations.test" })).body.id;
    theirs = (await other.owner.api.post("/v1/contacts", { email: "theirs@relations.test" })).body.id;
  });

  it("lists the segments the contact was added to, latest first", async () => {
    const first = (await org.owner.api.post("/v1/segments", { name: "Early" })).body;
    const second = (await org.owner.api.post("/v1/segments", { name: "Late" })).body;
    await org.owner.api.post("/v1/segments", { name: "Not in it" });
    await org.owner.api.post(`/v1/segments/${first.id}/contacts`, { contact_ids: [contactId] });
    await org.owner.api.post(`/v1/segments/${second.id}/contacts`, { contact_ids: [contactId] });
    const answer = await org.owner.api.get(`/v1/contacts/${contactId}/segments`);
    expect(answer.status).toBe(200);
    const page = contactSegments.parse(answer.body);
    expect(page.data.map((s) => s.name)).toEqual(["Late", "Early"]);
    expect(page.has_more).toBe(false);
  });

  it("lists the dynamic segments whose filter the contact matches now, after the static ones", async () => {
    const contact = (await org.owner.api.post("/v1/contacts", { email: "dyn@relations.test", metadata: { plan: "pro" } })).body.id;
    const list = (await org.owner.api.post("/v1/segments", { name: "Hand-picked" })).body;
    await org.owner.api.post(`/v1/segments/${list.id}/contacts`, { contact_ids: [contact] });
    const pro = (await org.owner.api.post("/v1/segments", { name: "Pro plan", filter: { field: "metadata.plan", op: "eq", value: "pro" } })).body;
    await org.owner.api.post("/v1/segments", { name: "Free plan", filter: { field: "metadata.plan", op: "eq", value: "free" } });
    const segments = async () => contactSegments.parse((await org.owner.api.get(`/v1/contacts/${contact}/segments`)).body).data;
    expect((await segments()).map((s) => [s.name, s.dynamic, s.added_at === null])).toEqual([
      ["Hand-picked", false, false],
      ["Pro plan", true, true],
    ]);
    expect((await segments())[1].id).toBe(pro.id);
    // Its data changes: it leaves the dynamic segment it no longer matches and enters the other.
    await org.owner.api.put(`/v1/contacts/${contact}`, { metadata: { plan: "free" } });
    expect((await segments()).map((s) => s.name)).toEqual(["Hand-picked", "Free plan"]);
  });

  it("lists every topic with whether the contact receives it: its choice, else the topic's default", async () => {
    const optIn = (await org.owner.api.post("/v1/topics", { name: "Beta news", default_subscription: "opt_in" })).body;
    const optOut = (await org.owner.api.post("/v1/topics", { name: "Announcements", default_subscription: "opt_out" })).body;
    const chosen = (await org.owner.api.post("/v1/topics", { name: "Digest", default_subscription: "opt_out" })).body;
    await db.contactTopic.create({ data: { organization_id: org.organizationId, contact_id: contactId, topic_id: chosen.id, subscribed: false } });
    const answer = await org.owner.api.get(`/v1/contacts/${contactId}/topics`);
    expect(contactTopics.parse(answer.body)).toEqual([
      { topic_id: optOut.id, name: "Announcements", subscribed: true },
      { topic_id: optIn.id, name: "Beta news", subscribed: false },
      { topic_id: chosen.id, name: "Digest", subscribed: false },
    ]);
  });

  it("filters the emails list by contact", async () => {
    const email = await db.email.create({
      data: {
        organization_id: org.organizationId,
        message_id: `<${randomId()}@x>`,
        from_email: "n@x.test",
        to_email: "member@relations.test",
        subject: "Hi",
        contact_id: contactId,
      },
    });
    await db.email.create({
      data: { organization_id: org.organizationId, message_id: `<${randomId()}@x>`, from_email: "n@x.test", to_email: "else@x.test", subject: "Other" },
    });
    const answer = await org.owner.api.get(`/v1/emails?contact_id=${contactId}`);
    expect(answer.body.data.map((e: { id: string }) => e.id)).toEqual([email.id]);
  });

  it("answers 404 for another organization's contact or none", async () => {
    for (const path of ["segments", "topics"]) {
      expectError(await org.owner.api.get(`/v1/contacts/${theirs}/${path}`), 404, "NOT_FOUND");
      expectError(await org.owner.api.get(`/v1/contacts/${randomId()}/${path}`), 404, "NOT_FOUND");
    }
  });
});
