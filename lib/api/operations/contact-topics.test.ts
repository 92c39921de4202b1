import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { topicSubscriberCounts } from "@/lib/audience/topic-counts";
import { receivesTopicSql } from "@/lib/audience/topics";
import { reachableCondition } from "@/lib/audience/reachable";
import { createTestOrg, expectError, randomId, type TestOrg } from "@/lib/testing/api";

describe("a contact's topics", () => {
  let org: TestOrg;
  let other: TestOrg;
  let optIn: string;
  let optOut: string;
  let contactId: string;

  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
    optIn = (await org.owner.api.post("/v1/topics", { name: "A product news", default_subscription: "opt_in" })).body.id;
    optOut = (await org.owner.api.post("/v1/topics", { name: "B newsletter", default_subscription: "opt_out" })).body.id;
    contactId = (await org.owner.api.post("/v1/contacts", { email: "topics@example.test" })).body.id;
  });

  it("GET answers every topic with the defaults of decisions.md: opt_in not received, opt_out received", async () => {
    const listed = await org.owner.api.get(`/v1/contacts/${contactId}/topics`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      { topic_id: optIn, name: "A product news", subscribed: false },
      { topic_id: optOut, name: "B newsletter", subscribed: true },
    ]);
  });

  it("PUT records the choices given, keeps the others, answers the list and records an event per change", async () => {
    const changed = await org.owner.api.put(`/v1/contacts/${contactId}/topics`, [
      { topic_id: optIn, name: "ignored", subscribed: true },
      { topic_id: optOut.toUpperCase(), subscribed: false },
    ]);
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual([
      { topic_id: optIn, name: "A product news", subscribed: true },
      { topic_id: optOut, name: "B newsletter", subscribed: false },
    ]);
    expect((await org.owner.api.get(`/v1/contacts/${contactId}/topics`)).body).toEqual(changed.body);
    // Saying it again changes nothing and records nothing more.
    await org.owner.api.put(`/v1/contacts/${contactId}/topics`, [{ topic_id: optIn, subscribed: true }]);
    const events = await db.event.findMany({
      where: { organization_id: org.organizationId, contact_id: contactId, name: { startsWith: "contact.topic_" } },
      orderBy: { created_at: "asc" },
    });
    expect(events.map((e) => [e.name, (e.properties as { topic_id: string }).topic_id, e.source]).sort()).toEqual(
      [
        ["contact.topic_subscribed", optIn, "contacts"],
        ["contact.topic_unsubscribed", optOut, "contacts"],
      ].sort(),
    );
  });

  it("refuses a topic of another organization, an unknown one or one named twice with 400 naming the entry, changing nothing", async () => {
    const theirs = (await other.owner.api.post("/v1/topics", { name: "Theirs", default_subscription: "opt_out" })).body.id;
    const before = (await org.owner.api.get(`/v1/contacts/${contactId}/topics`)).body;
    for (const [body, path] of [
      [
        [
          { topic_id: optIn, subscribed: false },
          { topic_id: theirs, subscribed: true },
        ],
        "1.topic_id",
      ],
      [[{ topic_id: randomId(), subscribed: true }], "0.topic_id"],
      [
        [
          { topic_id: optIn, subscribed: false },
          { topic_id: optIn, subscribed: true },
        ],
        "1.topic_id",
      ],
      [[{ topic_id: optIn }], "0.subscribed"],
    ] as const) {
      const error = expectError(await org.owner.api.put(`/v1/contacts/${contactId}/topics`, body), 400, "VALIDATION_ERROR");
      expect(error.details?.map((d) => d.path)).toContain(path);
    }
    expect((await org.owner.api.get(`/v1/contacts/${contactId}/topics`)).body).toEqual(before);
    expect(await db.contactTopic.count({ where: { topic_id: theirs } })).toBe(0);
  });

  it("answers 404 for a contact of another organization, and 400 for a malformed id", async () => {
    const theirs = (await other.owner.api.post("/v1/contacts", { email: "theirs@example.test" })).body.id;
    expectError(await org.owner.api.get(`/v1/contacts/${theirs}/topics`), 404, "NOT_FOUND");
    expectError(await org.owner.api.put(`/v1/contacts/${theirs}/topics`, [{ topic_id: optIn, subscribed: true }]), 404, "NOT_FOUND");
    expectError(await org.owner.api.get(`/v1/contacts/not-a-uuid/topics`), 400, "VALIDATION_ERROR");
  });
});

describe("topics' subscribers_count", () => {
  it("is, for every topic, the reachable contacts receiving it by the rule, contact by contact", async () => {
    const org = await createTestOrg();
    const organization_id = org.organizationId;
    const topics = await Promise.all(
      (["opt_in", "opt_out", "opt_in", "opt_out"] as const).map((default_subscription, i) =>
        db.topic.create({ data: { organization_id, name: `T${i}`, default_subscription } }),
      ),
    );
    // 40 contacts: every mix of subscribed, suppressed and a choice (or none) per topic.
    for (let i = 0; i < 40; i++) {
      const email = `c${i}@example.test`;
      const contact = await db.contact.create({ data: { organization_id, email, subscribed: i % 5 !== 0 } });
      if (i % 7 === 0) await db.suppression.create({ data: { organization_id, email, reason: "manual" } });
      for (const [t, topic] of topics.entries()) {
        const pick = (i + t) % 3;
        if (pick < 2) await db.contactTopic.create({ data: { organization_id, contact_id: contact.id, topic_id: topic.id, subscribed: pick === 0 } });
      }
    }
    const counts = await topicSubscriberCounts(db, organization_id, topics);
    for (const topic of topics) {
      const [{ n }] = await db.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM contacts c WHERE ${reachableCondition({ organizationId: organization_id, topicId: null })} AND ${receivesTopicSql(topic.id)}`;
      expect(counts.get(topic.id), topic.default_subscription).toBe(n);
      expect(n).toBeGreaterThan(0);
    }
    const listed = await org.owner.api.get("/v1/topics?limit=10");
    expect(new Map(listed.body.data.map((t: { id: string; subscribers_count: number }) => [t.id, t.subscribers_count]))).toEqual(counts);
  });
});
