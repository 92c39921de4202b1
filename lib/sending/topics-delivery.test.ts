import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";
import { drain, sinkInbox } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { startBroadcast } from "./fan-out";
import { createSender } from "./sender";

// decisions.md, "Consent", through the API only: choices made with PUT /v1/contacts/{id}/topics,
// broadcasts sent with /send, what the SMTP server receives.
describe("broadcasts to topics", () => {
  let sink: SmtpSink;
  let org: TestOrg;
  let inboxId: string;
  let segmentId: string;
  const topics: Record<string, string> = {};
  const contacts: Record<string, string> = {};

  beforeAll(async () => {
    sink = await startSmtpSink();
    org = await createTestOrg();
    inboxId = (await sinkInbox(org.organizationId, sink)).id;
    segmentId = (await org.owner.api.post("/v1/segments", { name: "Everyone" })).body.id;
    for (const [name, default_subscription] of [
      ["a", "opt_out"],
      ["b", "opt_out"],
      ["c", "opt_in"],
    ]) {
      topics[name] = (await org.owner.api.post("/v1/topics", { name: `Topic ${name}`, default_subscription })).body.id;
    }
    for (const name of ["left-a", "joined-c", "silent"]) {
      contacts[name] = (await org.owner.api.post("/v1/contacts", { email: `${name}@example.test` })).body.id;
    }
    await org.owner.api.post(`/v1/segments/${segmentId}/contacts`, { contact_ids: Object.values(contacts) });
    expect((await org.owner.api.put(`/v1/contacts/${contacts["left-a"]}/topics`, [{ topic_id: topics.a, subscribed: false }])).status).toBe(200);
    expect((await org.owner.api.put(`/v1/contacts/${contacts["joined-c"]}/topics`, [{ topic_id: topics.c, subscribed: true }])).status).toBe(200);
  });
  afterAll(() => sink.close());

  /** Sends a broadcast to the segment (with the topic, if any) and answers who received it. */
  async function send(topic: string | null, beforeSending?: () => Promise<void>): Promise<string[]> {
    const created = await org.owner.api.post("/v1/broadcasts", {
      name: `To ${topic ?? "no topic"}`,
      subject: "News",
      html_content: "<p>Hello</p>",
      inbox_id: inboxId,
      segment_id: segmentId,
      topic_id: topic ? topics[topic] : null,
      sending_speed: "instant",
    });
    expect(created.status).toBe(201);
    expect((await org.owner.api.post(`/v1/broadcasts/${created.body.id}/send`, {})).status).toBe(200);
    expect(await startBroadcast(created.body.id)).toBe("started");
    await beforeSending?.();
    const sender = createSender({ organizationId: org.organizationId });
    await drain(sender, org.organizationId);
    sender.close();
    const rows = await db.email.findMany({ where: { broadcast_id: created.body.id, status: "sent" }, select: { to_email: true } });
    const sent = rows.map((row) => row.to_email).sort();
    const received = sink.messages.filter((m) => m.parsed.subject === "News").flatMap((m) => m.envelopeTo);
    for (const address of sent) expect(received).toContain(address);
    return sent;
  }

  it("a contact that left topic A gets topic B and a broadcast without a topic", async () => {
    expect(await send("a")).toEqual(["joined-c@example.test", "silent@example.test"]);
    expect(await send("b")).toEqual(["joined-c@example.test", "left-a@example.test", "silent@example.test"]);
    expect(await send(null)).toEqual(["joined-c@example.test", "left-a@example.test", "silent@example.test"]);
  });

  it("an opt_in topic reaches only the contacts that subscribed to it", async () => {
    expect(await send("c")).toEqual(["joined-c@example.test"]);
  });

  it("a choice made after the fan-out is still honoured when the email's turn comes", async () => {
    const sent = await send("b", async () => {
      await org.owner.api.put(`/v1/contacts/${contacts.silent}/topics`, [{ topic_id: topics.b, subscribed: false }]);
    });
    expect(sent).toEqual(["joined-c@example.test", "left-a@example.test"]);
  });

  it("a topic turned opt_in after the fan-out reaches, when the emails' turn comes, only those that joined it", async () => {
    const d = (await org.owner.api.post("/v1/topics", { name: "Topic d", default_subscription: "opt_out" })).body.id;
    topics.d = d;
    await org.owner.api.put(`/v1/contacts/${contacts["joined-c"]}/topics`, [{ topic_id: d, subscribed: true }]);
    const sent = await send("d", async () => {
      expect((await org.owner.api.put(`/v1/topics/${d}`, { default_subscription: "opt_in" })).status).toBe(200);
    });
    expect(sent).toEqual(["joined-c@example.test"]);
  });
});
