import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { env } from "@/lib/env";
import { createTestOrg, expectError, randomId, type TestOrg } from "@/lib/testing/api";
import { seedSegment, sinkInbox } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";

// Follow-up steps get what the first email gets: a preview as a contact, a test send and the
// pre-send checks; and every preview shows a contact's conditional blocks as the sender would.
const paragraph = (words: string) => ({ type: "paragraph", content: [{ type: "text", text: words }] });
const proOnly = { type: "conditional", attrs: { filter: { field: "metadata.plan", op: "eq", value: "pro" } }, content: [paragraph("Pro corner")] };

describe("previews, test sends and checks of broadcasts and their steps", () => {
  let org: TestOrg;
  let sink: SmtpSink;
  let broadcastId: string;
  let stepId: string;
  let pro: string;
  let free: string;

  beforeAll(async () => {
    org = await createTestOrg();
    sink = await startSmtpSink();
    const inbox = await sinkInbox(org.organizationId, sink, { from_email: "ada@acme.test" });
    const { segmentId, contacts } = await seedSegment(org.organizationId, [
      { email: "pro@example.test", first_name: "Pia", metadata: { plan: "pro" } },
      { email: "free@example.test", first_name: "Finn", metadata: { plan: "free" } },
    ]);
    [pro, free] = contacts.map((c) => c.id);
    const created = await org.owner.api.post("/v1/broadcasts", {
      name: "Launch",
      subject: "Hi {{first_name|you}}",
      preview_text: "For {{first_name|you}}",
      inbox_id: inbox.id,
      segment_id: segmentId,
      content_json: { type: "doc", content: [paragraph("Everyone reads this"), proOnly, { type: "footer" }] },
    });
    broadcastId = created.body.id;
    const step = await org.owner.api.post(`/v1/broadcasts/${broadcastId}/steps`, {
      delay_minutes: 60,
      subject: "Still there, {{first_name|friend}}?",
      content_json: {
        type: "doc",
        content: [
          paragraph("A gentle nudge"),
          proOnly,
          { type: "paragraph", content: [{ type: "text", text: "bad", marks: [{ type: "link", attrs: { href: "javascript:alert(1)" } }] }] },
        ],
      },
    });
    expect(step.status).toBe(201);
    stepId = step.body.id;
  });
  afterAll(() => sink.close());

  it("previews the first email as a contact: their placeholders and their conditional blocks", async () => {
    const asPro = await org.owner.api.get(`/v1/broadcasts/${broadcastId}/preview?contact_id=${pro}`);
    expect(asPro.status).toBe(200);
    expect(asPro.body).toMatchObject({ subject: "Hi Pia", preview_text: "For Pia" });
    expect(asPro.body.html).toContain("Pro corner");
    expect(asPro.body.text).toContain("Pro corner");
    const asFree = await org.owner.api.get(`/v1/broadcasts/${broadcastId}/preview?contact_id=${free}`);
    expect(asFree.body.html).toContain("Everyone reads this");
    expect(asFree.body.html).not.toContain("Pro corner");
    expect(asFree.body.text).not.toContain("Pro corner");
    // Nobody in particular: fallbacks, and every block, so a reviewer sees all of it.
    const nobody = await org.owner.api.get(`/v1/broadcasts/${broadcastId}/preview`);
    expect(nobody.body).toMatchObject({ subject: "Hi you", preview_text: "For you" });
    expect(nobody.body.html).toContain("Pro corner");
  });

  it("previews a step, with its own subject", async () => {
    const asFree = await org.owner.api.get(`/v1/broadcasts/${broadcastId}/preview?step_id=${stepId}&contact_id=${free}`);
    expect(asFree.status).toBe(200);
    expect(asFree.body.subject).toBe("Still there, Finn?");
    expect(asFree.body.html).toContain("A gentle nudge");
    expect(asFree.body.html).not.toContain("Pro corner");
  });

  it("sends a test of a step, rendered as the contact", async () => {
    const result = await org.owner.api.post(`/v1/broadcasts/${broadcastId}/test`, { emails: ["reviewer@example.test"], contact_id: pro, step_id: stepId });
    expect(result.status).toBe(200);
    expect(result.body.subject).toBe("[Test] Still there, Pia?");
    const [mail] = await sink.waitFor(1);
    expect(mail.parsed.html).toContain("A gentle nudge");
    expect(mail.parsed.html).toContain("Pro corner");
  });

  it("runs the pre-send checks of a step: its bad link is an error the first email does not have", async () => {
    const first = await org.owner.api.get(`/v1/broadcasts/${broadcastId}/checks`);
    expect(first.body.checks.find((c: { id: string }) => c.id === "links").status).toBe("pass");
    const step = await org.owner.api.get(`/v1/broadcasts/${broadcastId}/checks?step_id=${stepId}`);
    expect(step.status).toBe(200);
    const links = step.body.checks.find((c: { id: string }) => c.id === "links");
    expect(links).toMatchObject({ status: "error", items: ["javascript:alert(1)"] });
    expect(step.body.checks.find((c: { id: string }) => c.id === "subject").status).toBe("pass");
  });

  it("renders the conditional blocks, the view-in-browser link and the preference link together: in a test send, the preview and the checks", async () => {
    const link = (words: string, href: string) => ({ type: "paragraph", content: [{ type: "text", text: words, marks: [{ type: "link", attrs: { href } }] }] });
    const inbox = (await org.owner.api.get(`/v1/broadcasts/${broadcastId}`)).body.inbox_id;
    const created = await org.owner.api.post("/v1/broadcasts", {
      name: "Links",
      subject: "Links",
      inbox_id: inbox,
      content_json: {
        type: "doc",
        content: [link("View in browser", "{{view_in_browser_url}}"), proOnly, link("Your topics", "{{preferences_url}}"), { type: "footer" }],
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const before = sink.messages.length;
    const sent = await org.owner.api.post(`/v1/broadcasts/${id}/test`, { emails: ["links@example.test"], contact_id: pro });
    expect(sent.status).toBe(200);
    const mail = (await sink.waitFor(before + 1)).find((m) => m.envelopeTo[0] === "links@example.test")!;
    for (const part of [mail.parsed.html || "", mail.parsed.text || ""]) {
      expect(part).toContain("Pro corner");
      expect(part).toMatch(new RegExp(`${env.appUrl}/v/[A-Za-z0-9_-]{43}`));
      expect(part).toMatch(new RegExp(`${env.appUrl}/p/[A-Za-z0-9_-]{43}`));
      expect(part).toMatch(new RegExp(`${env.appUrl}/u/[A-Za-z0-9_-]{43}`));
      expect(part).not.toContain("{{");
    }
    // Shown through {{preferences_url}}, the preference link is not added again in the footer.
    expect(mail.parsed.html).not.toContain("Manage preferences");
    const preview = await org.owner.api.get(`/v1/broadcasts/${id}/preview?contact_id=${free}`);
    expect(preview.body.html).toContain(`href="${env.appUrl}/v/preview"`);
    expect(preview.body.html).toContain(`href="${env.appUrl}/p/preview"`);
    expect(preview.body.html).not.toContain("Pro corner");
    const checks = (await org.owner.api.get(`/v1/broadcasts/${id}/checks`)).body.checks as { id: string; status: string }[];
    expect(checks.find((c) => c.id === "links")?.status).toBe("pass");
    expect(checks.find((c) => c.id === "placeholders")?.status).toBe("pass");
  });

  it("refuses a step of another broadcast (400 naming step_id) and another organization's contact (400)", async () => {
    const other = await org.owner.api.post("/v1/broadcasts", { name: "Other", subject: "S", from_email: "ada@acme.test", html_content: "<p>x</p>" });
    for (const path of [`/v1/broadcasts/${other.body.id}/preview?step_id=${stepId}`, `/v1/broadcasts/${other.body.id}/checks?step_id=${stepId}`]) {
      const error = expectError(await org.owner.api.get(path), 400, "VALIDATION_ERROR");
      expect(error.details?.[0].path).toBe("step_id");
    }
    const stranger = await createTestOrg();
    const theirs = await seedSegment(stranger.organizationId, [{ email: "x@example.test" }]);
    const error = expectError(await org.owner.api.get(`/v1/broadcasts/${broadcastId}/preview?contact_id=${theirs.contacts[0].id}`), 400);
    expect(error.details?.[0].path).toBe("contact_id");
    expectError(await stranger.owner.api.get(`/v1/broadcasts/${broadcastId}/preview`), 404, "NOT_FOUND");
    expectError(await org.owner.api.get(`/v1/broadcasts/${randomId()}/preview`), 404, "NOT_FOUND");
  });

  it("refuses a conditional block whose filter names nothing of the organization (400 naming the place)", async () => {
    const error = expectError(
      await org.owner.api.post("/v1/broadcasts", {
        name: "B",
        subject: "S",
        from_email: "ada@acme.test",
        content_json: {
          type: "doc",
          content: [paragraph("x"), { type: "conditional", attrs: { filter: { in_segment: randomId() } }, content: [paragraph("y")] }],
        },
      }),
      400,
      "VALIDATION_ERROR",
    );
    expect(error.details?.[0].path).toBe("content_json.content.1.attrs.filter.in_segment");
    const many = Array.from({ length: 21 }, () => proOnly);
    const tooMany = expectError(
      await org.owner.api.post("/v1/broadcasts", { name: "B", subject: "S", from_email: "ada@acme.test", content_json: { type: "doc", content: many } }),
      400,
    );
    expect(tooMany.details?.[0].message).toMatch(/at most 20 conditional blocks/);
  });
});
