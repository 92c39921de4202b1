import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { startBroadcast } from "@/lib/sending/fan-out";
import { dispatchSequenceSteps, SEQUENCE_EXIT_PREFIX } from "@/lib/sequences/dispatch";
import { createTestOrg, expectError, type TestOrg } from "@/lib/testing/api";
import { verifiedDomain } from "@/lib/testing/sending-fixtures";
import { addContacts, addInbox, addSentFirstEmail, addSequencedBroadcast } from "@/lib/testing/sequence-fixtures";

// The engine resolves a dynamic segment when it runs: the broadcast's fan-out reaches whoever
// matches when its chunks are written, a sequence's exit rule whoever matches when a step falls due.

describe("dynamic segments in the engine", () => {
  let org: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg();
    await verifiedDomain(org.organizationId, "acme.test");
    await org.owner.api.post("/v1/contact-properties", { key: "plan", type: "string" });
  });

  const broadcastTo = (segmentId: string) =>
    db.broadcast.create({
      data: {
        organization_id: org.organizationId,
        name: "To a dynamic segment",
        subject: "Hi",
        from_email: "news@acme.test",
        html_content: "<p>Hi</p>",
        status: "scheduled",
        scheduled_at: new Date(),
        segment_id: segmentId,
      },
    });

  it("fans out to the contacts matching when it runs, in chunks, leaving out the unreachable", async () => {
    const tag = `pro-${randomUUID().slice(0, 6)}`;
    // 450 matching contacts among 900: more than the first chunk of 200, interleaved with others.
    await db.$executeRaw`
      INSERT INTO contacts (organization_id, email, metadata, subscribed)
      SELECT ${org.organizationId}::uuid, ${tag} || '-' || g || '@example.test',
        jsonb_build_object('plan', CASE WHEN g % 2 = 0 THEN ${tag} ELSE 'free' END), g <> 2
      FROM generate_series(1, 900) g`;
    await db.suppression.create({ data: { organization_id: org.organizationId, email: `${tag}-4@example.test`, reason: "manual" } });
    const { body: segment } = await org.owner.api.post("/v1/segments", { name: "Pro", filter: { field: "metadata.plan", op: "eq", value: tag } });
    expect(segment.contacts_count).toBe(450);
    // Joins after the segment was saved, before the broadcast runs.
    const { body: late } = await org.owner.api.post("/v1/contacts", { email: `${tag}-late@example.test`, metadata: { plan: tag } });

    const broadcast = await broadcastTo(segment.id);
    expect(await startBroadcast(broadcast.id)).toBe("started");
    const emails = await db.email.findMany({ where: { broadcast_id: broadcast.id }, select: { to_email: true, contact_id: true } });
    // 450 matching + the late one, less the unsubscribed (#2) and the suppressed (#4).
    expect(emails).toHaveLength(449);
    expect(emails.some((email) => email.contact_id === late.id)).toBe(true);
    expect(
      emails.every((email) => /-(\d+|late)@/.exec(email.to_email) && !email.to_email.startsWith(`${tag}-2@`) && !email.to_email.startsWith(`${tag}-4@`)),
    ).toBe(true);
    expect(new Set(emails.map((email) => email.contact_id)).size).toBe(449);
    expect((await db.broadcast.findUniqueOrThrow({ where: { id: broadcast.id } })).total_recipients).toBe(449);
  });

  it("refuses to send to a dynamic segment nobody reachable matches", async () => {
    const { body: segment } = await org.owner.api.post("/v1/segments", { name: "Nobody", filter: { field: "metadata.plan", op: "eq", value: "none" } });
    const { body: broadcast } = await org.owner.api.post("/v1/broadcasts", {
      name: "Empty",
      subject: "S",
      from_email: "news@acme.test",
      html_content: "<p>x</p>",
      segment_id: segment.id,
    });
    const answer = expectError(await org.owner.api.post(`/v1/broadcasts/${broadcast.id}/send`, {}), 400, "BROADCAST_NOT_SENDABLE");
    expect(answer.details).toEqual([{ path: "segment_id", message: expect.stringContaining("no subscribed") }]);
  });

  it("ends a sequence for a contact who entered a dynamic exit segment by the time the step falls due", async () => {
    const inbox = await addInbox(org.organizationId);
    const people = await addContacts(org.organizationId, ["Ann", "Bob", "Cat"]);
    const audience = await db.segment.create({ data: { organization_id: org.organizationId, name: "Audience" } });
    await db.segmentContact.createMany({
      data: Object.values(people).map((p) => ({ segment_id: audience.id, contact_id: p.id, organization_id: org.organizationId })),
    });
    const { body: customers } = await org.owner.api.post("/v1/segments", { name: "Customers", filter: { field: "metadata.plan", op: "eq", value: "paid" } });
    const { body: prospects } = await org.owner.api.post("/v1/segments", {
      name: "Prospects",
      filter: { not: { field: "tags", op: "contains", value: "lost" } },
    });
    const broadcast = await addSequencedBroadcast({
      organizationId: org.organizationId,
      segmentId: audience.id,
      inboxId: inbox.id,
      exitConditions: { exit_if_in_segment_ids: [customers.id], exit_if_not_in_segment_ids: [prospects.id] },
      steps: [{ delay_minutes: 60 }],
    });
    for (const person of Object.values(people)) await addSentFirstEmail(broadcast, person, 90);
    // After the first email: Ann pays, Bob is marked lost; Cat is unchanged.
    await org.owner.api.put(`/v1/contacts/${people.Ann.id}`, { metadata: { plan: "paid" } });
    await org.owner.api.put(`/v1/contacts/${people.Bob.id}`, { tags: ["lost"] });
    expect(await dispatchSequenceSteps({ organizationId: org.organizationId })).toBe(3);
    const rows = await db.email.findMany({ where: { broadcast_id: broadcast.id, sequence_position: 1 } });
    const outcome = (id: string) => {
      const row = rows.find((r) => r.contact_id === id)!;
      return row.status === "queued" ? "queued" : row.last_error;
    };
    expect(outcome(people.Ann.id)).toBe(`${SEQUENCE_EXIT_PREFIX}in an exit segment`);
    expect(outcome(people.Bob.id)).toBe(`${SEQUENCE_EXIT_PREFIX}not in a required segment`);
    expect(outcome(people.Cat.id)).toBe("queued");
  });
});
