import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestOrg } from "@/lib/testing/api";
import { addInbox, addSegment, addSequencedBroadcast } from "@/lib/testing/sequence-fixtures";
import { dispatchSequenceSteps, sequenceHasPendingWork } from "./dispatch";

const RECIPIENTS = 5_000;

describe("sequence dispatch at scale", () => {
  // How fast is for the benchmarks (timed assertions flake on a loaded machine); this proves the
  // set-based dispatch is right at a scale where per-row mistakes show.
  it(`dispatches a step for ${RECIPIENTS} recipients, leaving out those who replied or exited`, async () => {
    const organizationId = (await createTestOrg()).organizationId;
    const inboxId = (await addInbox(organizationId)).id;
    const segmentId = await addSegment(organizationId, "Everyone", []);
    const exitSegment = await addSegment(organizationId, "Exit", []);
    const broadcast = await addSequencedBroadcast({
      organizationId,
      segmentId,
      inboxId,
      exitConditions: { exit_if_in_segment_ids: [exitSegment], exit_if_not_in_segment_ids: [segmentId] },
      steps: [{ delay_minutes: 30 }],
    });
    await db.$executeRaw`
      WITH c AS (
        INSERT INTO contacts (organization_id, email)
        SELECT ${organizationId}::uuid, 'r' || n || '@scale.example' FROM generate_series(1, ${RECIPIENTS}) n
        RETURNING id, email
      ), s AS (
        INSERT INTO segment_contacts (segment_id, contact_id, organization_id) SELECT ${segmentId}::uuid, id, ${organizationId}::uuid FROM c
      ), t AS (
        INSERT INTO threads (id, organization_id, subject, contact_id, broadcast_id)
        SELECT gen_random_uuid(), ${organizationId}::uuid, 'Quick question', id, ${broadcast.id}::uuid FROM c
        RETURNING id, contact_id
      )
      INSERT INTO emails (organization_id, message_id, from_email, to_email, subject, broadcast_id, sequence_position,
        contact_id, inbox_id, thread_id, status, sent_at)
      SELECT ${organizationId}::uuid, '<' || gen_random_uuid() || '@sales.example.com>', 'sam@sales.example.com', c.email,
        'Quick question', ${broadcast.id}::uuid, 0, c.id, ${inboxId}::uuid, t.id, 'sent', now() - interval '1 hour'
      FROM c JOIN t ON t.contact_id = c.id`;
    // Every tenth recipient replied, every seventh is in the exit segment.
    await db.$executeRaw`
      UPDATE emails SET replied_at = now() WHERE broadcast_id = ${broadcast.id}::uuid AND split_part(to_email, '@', 1) ~ '0$'`;
    await db.$executeRaw`
      INSERT INTO segment_contacts (segment_id, contact_id, organization_id)
      SELECT ${exitSegment}::uuid, id, ${organizationId}::uuid FROM contacts
      WHERE organization_id = ${organizationId}::uuid AND substring(email FROM 2 FOR position('@' IN email) - 2)::int % 7 = 0`;

    let created = 0;
    for (let round = 0; round < 10; round++) {
      const did = await dispatchSequenceSteps({ organizationId });
      if (did === 0) break;
      created += did;
    }

    expect(created).toBe(RECIPIENTS);
    const byStatus = await db.email.groupBy({ by: ["status"], where: { broadcast_id: broadcast.id, sequence_position: 1 }, _count: true });
    const count = (status: string) => byStatus.find((g) => g.status === status)?._count ?? 0;
    const replied = RECIPIENTS / 10;
    const exited = Math.floor(RECIPIENTS / 7) - Math.floor(RECIPIENTS / 70);
    expect(count("cancelled")).toBe(replied + exited);
    expect(count("queued")).toBe(RECIPIENTS - replied - exited);
    expect(await sequenceHasPendingWork(broadcast.id)).toBe(false);
  });
});
