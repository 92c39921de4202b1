import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { testImages } from "@/lib/testing/images";
import { createTestOrg, expectError, type TestOrg } from "@/lib/testing/api";

const doc = (words: string) => ({
  type: "doc",
  content: [
    { type: "paragraph", content: [{ type: "text", text: words, marks: [{ type: "link", attrs: { href: "https://example.com" } }] }] },
    { type: "button", attrs: { label: "Go", href: "https://example.com/go" } },
    { type: "footer" },
  ],
});

describe("the organization's theme", () => {
  let org: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg("Brandy");
  });

  it("is applied to every block email: colours, font stack, logo and footer", async () => {
    const logo = await org.owner.api.post("/v1/media", { filename: "logo.png", content: testImages.png.toString("base64") });
    const saved = await org.owner.api.put("/v1/organization", {
      postal_address: "1 Main Street",
      theme: {
        primary_color: "#ff6600",
        text_color: "#112233",
        background_color: "#fafafa",
        font_family: "Georgia, 'Times New Roman', serif",
        logo_media_id: logo.body.id,
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.theme).toEqual({
      primary_color: "#ff6600",
      text_color: "#112233",
      background_color: "#fafafa",
      font_family: "Georgia, 'Times New Roman', serif",
      logo_media_id: logo.body.id,
      footer_html: null,
    });
    const broadcast = await org.owner.api.post("/v1/broadcasts", { name: "B", subject: "S", from_email: "a@acme.test", content_json: doc("Hello") });
    const html: string = broadcast.body.html_content;
    expect(html).toContain("background:#ff6600"); // the button
    expect(html).toContain("color:#ff6600"); // the link
    expect(html).toContain("color:#112233"); // the text
    expect(html).toMatch(/background-color:#fafafa/i);
    expect(html).toContain("Georgia, 'Times New Roman', serif");
    expect(html).toContain(`src="${logo.body.url}"`);
    expect(html).toContain("1 Main Street");
  });

  it("keeps fields left out, resets one given null, and puts the sanitized footer in place of the address", async () => {
    const saved = await org.owner.api.put("/v1/organization", {
      theme: {
        text_color: null,
        footer_html: '<p>Acme Inc., <b>2 Side Road</b> <a href="https://acme.test/about" onclick="steal()">About</a><script>alert(1)</script><img src=x></p>',
      },
    });
    expect(saved.body.theme).toMatchObject({ primary_color: "#ff6600", text_color: null });
    expect(saved.body.theme.footer_html).toBe('<p>Acme Inc., <b>2 Side Road</b> <a href="https://acme.test/about">About</a></p>');
    const broadcast = await org.owner.api.post("/v1/broadcasts", { name: "B", subject: "S", from_email: "a@acme.test", content_json: doc("Hi") });
    expect(broadcast.body.html_content).toContain("2 Side Road");
    expect(broadcast.body.html_content).not.toContain("1 Main Street");
    expect(broadcast.body.html_content).toContain("color:#18181b");
  });

  it("re-renders drafts, templates and steps when it changes, and leaves sent broadcasts and hand-written HTML alone", async () => {
    const fresh = await createTestOrg();
    const api = fresh.owner.api;
    const draft = await api.post("/v1/broadcasts", { name: "Draft", subject: "S", from_email: "a@acme.test", content_json: doc("Draft") });
    const template = await api.post("/v1/templates", { name: "T", subject: "S", content_json: doc("Template") });
    const step = await api.post(`/v1/broadcasts/${draft.body.id}/steps`, { delay_minutes: 60, subject: "Again", content_json: doc("Step") });
    const handWritten = await api.post("/v1/broadcasts", { name: "Hand", subject: "S", from_email: "a@acme.test", html_content: "<p>Mine</p>" });
    const sent = await api.post("/v1/broadcasts", { name: "Sent", subject: "S", from_email: "a@acme.test", content_json: doc("Sent") });
    await db.broadcast.update({ where: { id: sent.body.id }, data: { status: "sent" } });
    const before = await db.broadcast.findUniqueOrThrow({ where: { id: draft.body.id } });

    expect((await api.put("/v1/organization", { theme: { primary_color: "#00aa55" } })).status).toBe(200);
    expect((await api.get(`/v1/broadcasts/${draft.body.id}`)).body.html_content).toContain("background:#00aa55");
    expect((await api.get(`/v1/templates/${template.body.id}`)).body.html_content).toContain("background:#00aa55");
    const steps = await api.get(`/v1/broadcasts/${draft.body.id}/steps`);
    expect(steps.body.data.find((s: { id: string }) => s.id === step.body.id).html_content).toContain("background:#00aa55");
    expect((await api.get(`/v1/broadcasts/${handWritten.body.id}`)).body.html_content).toBe("<p>Mine</p>");
    expect((await api.get(`/v1/broadcasts/${sent.body.id}`)).body.html_content).not.toContain("#00aa55");
    // Its author's last edit is still when it was last edited.
    expect((await db.broadcast.findUniqueOrThrow({ where: { id: draft.body.id } })).updated_at).toEqual(before.updated_at);
  });

  it.each([
    ["theme.primary_color", { primary_color: "red" }],
    ["theme.primary_color", { primary_color: "#ff6600;background:url(x)" }],
    ["theme.font_family", { font_family: 'Arial" onload="x' }],
    ["theme.font_family", { font_family: "Arial; } body { color: red" }],
    ["theme.footer_html", { footer_html: "x".repeat(5001) }],
  ])("refuses %s that could break out of its place (case %#)", async (path, theme) => {
    const error = expectError(await org.owner.api.put("/v1/organization", { theme }), 400, "VALIDATION_ERROR");
    expect(error.details?.map((d) => d.path)).toContain(path);
  });

  it("refuses a logo from another organization's library as if it did not exist", async () => {
    const other = await createTestOrg();
    const theirs = await other.owner.api.post("/v1/media", { filename: "x.png", content: testImages.png.toString("base64") });
    const error = expectError(await org.owner.api.put("/v1/organization", { theme: { logo_media_id: theirs.body.id } }), 400, "VALIDATION_ERROR");
    expect(error.details?.[0].path).toBe("theme.logo_media_id");
  });

  it("is the owner's and admins' to change", async () => {
    const member = await org.addMember("member");
    expectError(await member.api.put("/v1/organization", { theme: { primary_color: "#000000" } }), 403, "FORBIDDEN");
  });
});
