import { beforeAll, describe, expect, it } from "vitest";
import { createTestOrg, expectError, type TestOrg } from "@/lib/testing/api";

const doc = (words: string) => ({
  type: "doc",
  content: [
    {
      type: "paragraph",
      content: [
        { type: "text", text: `${words} ` },
        { type: "variable", attrs: { name: "first_name", fallback: "there" } },
      ],
    },
    { type: "footer" },
  ],
});

describe("content_json: the server renders the visual editor's document", () => {
  let org: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg();
    expect((await org.owner.api.put("/v1/organization", { postal_address: "1 Main Street, Springfield" })).status).toBe(200);
  });

  it("renders html_content and text_content from it on broadcasts, and drops it when HTML is written by hand", async () => {
    const created = await org.owner.api.post("/v1/broadcasts", { name: "B", subject: "S", from_email: "a@acme.test", content_json: doc("Hello") });
    expect(created.status).toBe(201);
    expect(created.body.content_json).toEqual(doc("Hello"));
    expect(created.body.html_content).toMatch(/<table[^>]*role="presentation"/);
    expect(created.body.html_content).toContain("Hello {{first_name|there}}");
    expect(created.body.html_content).toContain("1 Main Street, Springfield");
    expect(created.body.text_content).toContain("Hello {{first_name|there}}");
    expect(created.body.text_content).toContain("Unsubscribe ({{unsubscribe_url}})");

    const updated = await org.owner.api.put(`/v1/broadcasts/${created.body.id}`, { content_json: doc("Bye") });
    expect(updated.body.html_content).toContain("Bye {{first_name|there}}");
    const fetched = await org.owner.api.get(`/v1/broadcasts/${created.body.id}`);
    expect(fetched.body.content_json).toEqual(doc("Bye"));

    const handWritten = await org.owner.api.put(`/v1/broadcasts/${created.body.id}`, { html_content: "<p>Mine</p>" });
    expect(handWritten.body).toMatchObject({ html_content: "<p>Mine</p>", content_json: null });
    const renamed = await org.owner.api.put(`/v1/broadcasts/${created.body.id}`, { name: "Renamed" });
    expect(renamed.body).toMatchObject({ html_content: "<p>Mine</p>", content_json: null });
  });

  it("refuses HTML or text beside a document, and documents the editor cannot make", async () => {
    const both = await org.owner.api.post("/v1/broadcasts", {
      name: "B",
      subject: "S",
      from_email: "a@acme.test",
      content_json: doc("x"),
      html_content: "<p>y</p>",
    });
    expectError(both, 400, "VALIDATION_ERROR");
    expect(both.body.details[0].path).toBe("html_content");
    expectError(
      await org.owner.api.post("/v1/broadcasts", {
        name: "B",
        subject: "S",
        from_email: "a@acme.test",
        content_json: { type: "doc", content: [{ type: "script" }] },
      }),
      400,
      "VALIDATION_ERROR",
    );
    expectError(
      await org.owner.api.post("/v1/broadcasts", { name: "B", subject: "S", from_email: "a@acme.test", content_json: "<p>x</p>" }),
      400,
      "VALIDATION_ERROR",
    );
  });

  it("works the same on templates (variables found in the rendering) and sequence steps", async () => {
    const template = await org.owner.api.post("/v1/templates", { name: "T", subject: "Hi {{last_name}}", content_json: doc("Hey") });
    expect(template.status).toBe(201);
    expect(template.body.variables).toEqual(["last_name", "first_name", "unsubscribe_url"]);
    expect(template.body.html_content).toContain("Hey {{first_name|there}}");
    const written = await org.owner.api.put(`/v1/templates/${template.body.id}`, { html_content: "<p>x</p>" });
    expect(written.body).toMatchObject({ content_json: null, html_content: "<p>x</p>" });

    const broadcast = await org.owner.api.post("/v1/broadcasts", { name: "B", subject: "S", from_email: "a@acme.test" });
    const step = await org.owner.api.post(`/v1/broadcasts/${broadcast.body.id}/steps`, { delay_minutes: 60, content_json: doc("Step") });
    expect(step.status).toBe(201);
    expect(step.body.html_content).toContain("Step {{first_name|there}}");
    expect(step.body.text_content).toContain("Step {{first_name|there}}");
  });
});
