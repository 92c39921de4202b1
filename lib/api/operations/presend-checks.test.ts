import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import type { PresendChecks } from "@/lib/schemas/presend-checks";
import { createTestOrg, expectError, randomId, type TestOrg } from "@/lib/testing/api";
import { seedSegment } from "@/lib/testing/sending-fixtures";

const byId = (result: PresendChecks) => Object.fromEntries(result.checks.map((c) => [c.id, c]));

describe("pre-send checks", () => {
  let org: TestOrg;
  let segmentId: string;

  beforeAll(async () => {
    org = await createTestOrg();
    ({ segmentId } = await seedSegment(org.organizationId, [
      { first_name: "Ann", metadata: { plan: "pro" } },
      { first_name: "  ", metadata: { plan: "" } },
      { first_name: null, metadata: {} },
      { first_name: "Zed", metadata: { plan: { nested: true } } },
    ]));
  });

  const checks = async (fields: Record<string, unknown>) => {
    const created = await org.owner.api.post("/v1/broadcasts", { name: "C", from_email: "a@acme.test", subject: "Hello", ...fields });
    expect(created.status).toBe(201);
    const result = await org.owner.api.get(`/v1/broadcasts/${created.body.id}/checks`);
    expect(result.status).toBe(200);
    return result.body as PresendChecks;
  };

  it("passes a careful email (apart from the spam score, which depends on the machine)", async () => {
    const result = await checks({
      preview_text: "Inside",
      segment_id: segmentId,
      html_content:
        '<p>Hi {{first_name|there}}</p><a href="https://example.com/x?id={{metadata.id|0}}">x</a><a href="mailto:a@b.co">m</a><img src="https://e.com/a.png" alt="A"><a href="{{unsubscribe_url}}">Unsubscribe</a>',
    });
    const c = byId(result);
    for (const id of ["subject", "preview_text", "unsubscribe", "links", "image_alt", "placeholders", "size"]) expect(c[id]?.status, id).toBe("pass");
    expect(result.ok).toBe(true);
    expect(result.errors).toBe(0);
  });

  it("flags each problem", async () => {
    const result = await checks({
      subject: " ",
      segment_id: segmentId,
      html_content: `<p>Hi {{first_name}}, your {{ metadata.plan }} plan</p><a href="javascript:alert(1)">a</a><a href="#">b</a><a href="">c</a><a href="www.example.com">d</a><img src="https://e.com/a.png"><img src="https://e.com/b.png" alt=" ">${"x".repeat(110 * 1024)}`,
    });
    const c = byId(result);
    expect(c.subject.status).toBe("error");
    expect(c.preview_text.status).toBe("warning");
    expect(c.unsubscribe.status).toBe("warning");
    expect(c.links).toMatchObject({ status: "error", items: ["javascript:alert(1)", "#", "(empty link)", "www.example.com"] });
    expect(c.image_alt).toMatchObject({ status: "warning", items: ["https://e.com/a.png", "https://e.com/b.png"] });
    // Counted over the audience: "  " and null lack a first name; "", {} and an object lack a plan.
    expect(c.placeholders).toMatchObject({
      status: "warning",
      items: ["{{first_name}}: 2 of 4 recipients have no value", "{{metadata.plan}}: 3 of 4 recipients have no value"],
    });
    expect(c.size.status).toBe("warning");
    expect(result).toMatchObject({ ok: false, errors: 2 });
  });

  it("asks for an audience before counting, and for content before anything", async () => {
    const noAudience = byId(await checks({ html_content: "<p>{{first_name}}</p>" }));
    expect(noAudience.placeholders).toMatchObject({ status: "warning", items: ["first_name"] });
    const empty = await checks({});
    expect(byId(empty).content.status).toBe("error");
    expect(empty.ok).toBe(false);
  });

  it("checks a template's content when the broadcast uses one", async () => {
    const template = await db.template.create({
      data: { organization_id: org.organizationId, name: "T", subject: "S", html_content: '<a href="ftp://x">x</a>' },
    });
    const c = byId(await checks({ template_id: template.id }));
    expect(c.links).toMatchObject({ status: "error", items: ["ftp://x"] });
  });

  it("scores the content with SpamAssassin where it is installed, and says so where it is not", { timeout: 120_000 }, async () => {
    const result = byId(await checks({ html_content: "<p>Hello, here is our monthly newsletter about gardening.</p>" }));
    expect(["pass", "warning", "skipped"]).toContain(result.spam.status);
    if (result.spam.status === "skipped") expect(result.spam.message).toMatch(/not installed|did not answer|gave no score/);
    else expect(result.spam.message).toMatch(/scores the content -?\d/);
    const original = env.spamassassinPath;
    (env as { spamassassinPath: string }).spamassassinPath = "/nonexistent/spamassassin";
    try {
      const missing = byId(await checks({ html_content: "<p>Hi</p>" }));
      expect(missing.spam).toMatchObject({ status: "skipped", message: expect.stringMatching(/not installed/) });
    } finally {
      (env as { spamassassinPath: string }).spamassassinPath = original;
    }
  });

  it("answers 404 for another organization's broadcast", async () => {
    const other = await createTestOrg();
    const created = await org.owner.api.post("/v1/broadcasts", { name: "C", from_email: "a@acme.test", subject: "S" });
    expectError(await other.owner.api.get(`/v1/broadcasts/${created.body.id}/checks`), 404, "NOT_FOUND");
    expectError(await org.owner.api.get(`/v1/broadcasts/${randomId()}/checks`), 404, "NOT_FOUND");
  });
});

describe("contact fields", () => {
  let org: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg();
    await seedSegment(org.organizationId, [{ metadata: { plan: "pro", city: "Oslo" } }, { metadata: { plan: "free" } }, { metadata: { "bad key": 1 } }]);
  });
  afterAll(() => undefined);

  it("lists the contact fields and the metadata keys present, most used first", async () => {
    const other = await createTestOrg();
    await seedSegment(other.organizationId, [{ metadata: { secret_key: 1 } }]);
    const result = await org.owner.api.get("/v1/contact-fields");
    expect(result.status).toBe(200);
    expect(result.body.fields.map((f: { name: string }) => f.name)).toEqual(["first_name", "last_name", "email"]);
    expect(result.body.metadata_keys).toEqual([
      { key: "plan", contacts: 2 },
      { key: "city", contacts: 1 },
    ]);
  });
});
