import { describe, expect, it } from "vitest";
import { POST as submitForm } from "@/app/f/[id]/submit/route";
import { PEER_HEADER } from "@/lib/api/client-address";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { createTestOrg } from "@/lib/testing/api";
import { activeAutomation, announceEvent, engineClock, runsOf, settle } from "@/lib/testing/automation-fixtures";
import { seedSegment } from "@/lib/testing/sending-fixtures";

describe("segment_entered on a static segment", () => {
  it("starts a run for each contact added after activation — by the API, a CSV import or another automation — and none for members from before", async () => {
    const clock = engineClock();
    const org = await createTestOrg();
    const { segmentId, contacts } = await seedSegment(org.organizationId, [{ email: "old@members.test" }]);
    const [old] = contacts;
    const { contacts: fresh } = await seedSegment(org.organizationId, [{ email: "new@members.test" }, { email: "second@members.test" }]);
    const automation = await activeAutomation(org, {
      name: "New members",
      trigger: { type: "segment_entered", segment_id: segmentId },
      steps: [{ type: "wait", minutes: 10 }],
    });

    const added = await org.owner.api.post(`/v1/segments/${segmentId}/contacts`, { contact_ids: [old.id, fresh[0].id] });
    expect(added.body).toEqual({ added: 1 });
    expect((await runsOf(org, automation.id)).map((r) => r.contact_id)).toEqual([fresh[0].id]);

    const imported = await org.owner.api.post("/v1/contacts/import", {
      file_content: Buffer.from("Email\nimported@members.test\nnew@members.test\n").toString("base64"),
      column_mappings: [{ csv_column: "Email", property_name: "email" }],
      handle_missing: "create",
      segment_id: segmentId,
    });
    expect(imported.status).toBe(200);
    const importedContact = await db.contact.findFirstOrThrow({ where: { organization_id: org.organizationId, email: "imported@members.test" } });
    expect((await runsOf(org, automation.id)).map((r) => r.contact_id).sort()).toEqual([fresh[0].id, importedContact.id].sort());

    // An automation's own add_to_segment step is an entry too.
    await activeAutomation(org, { name: "Adder", trigger: { type: "event", event: "x" }, steps: [{ type: "add_to_segment", segment_id: segmentId }] });
    await announceEvent(org.organizationId, fresh[1].id, "x");
    await settle(org.organizationId, clock);
    expect(await runsOf(org, automation.id, fresh[1].id)).toHaveLength(1);
    expect(await runsOf(org, automation.id, old.id)).toHaveLength(0);
  });

  it("starts a run for a contact a signup form subscribes into the segment", async () => {
    const org = await createTestOrg();
    const segment = await org.owner.api.post("/v1/segments", { name: "Newsletter" });
    const automation = await activeAutomation(org, {
      name: "Welcome series",
      trigger: { type: "segment_entered", segment_id: segment.body.id },
      steps: [{ type: "wait", minutes: 10 }],
    });
    const form = (await org.owner.api.post("/v1/forms", { name: "Footer", double_opt_in: false, fields: ["email"], segment_id: segment.body.id })).body;
    const answer = await submitForm(
      new Request(`${env.appUrl}/f/${form.id}/submit`, {
        method: "POST",
        headers: { origin: "https://shop.example", "content-type": "application/json", [PEER_HEADER]: `198.51.100.${Math.floor(Math.random() * 250) + 1}` },
        body: JSON.stringify({ email: "reader@newsletter.test" }),
      }),
      { params: Promise.resolve({ id: form.id }) },
    );
    expect(answer.status).toBeLessThan(400);
    const reader = await db.contact.findFirstOrThrow({ where: { organization_id: org.organizationId, email: "reader@newsletter.test" } });
    expect((await runsOf(org, automation.id)).map((r) => r.contact_id)).toEqual([reader.id]);
  });
});
