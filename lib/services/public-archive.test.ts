import { beforeAll, describe, expect, it } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import { GET as archivedBroadcast } from "@/app/archive/[organizationId]/[broadcastId]/route";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { createTestOrg, randomId, type TestOrg } from "@/lib/testing/api";
import { archivedBroadcastHtml, publicArchive } from "./public-archive";

const paragraph = (text: string) => ({ type: "paragraph", content: [{ type: "text", text }] });

describe("the public archive", () => {
  let org: TestOrg;
  let sent: string;
  let draft: string;
  beforeAll(async () => {
    org = await createTestOrg("Archivist");
    const api = org.owner.api;
    const doc = {
      type: "doc",
      content: [
        {
          type: "paragraph",
          content: [
            { type: "text", text: "Hello " },
            { type: "variable", attrs: { name: "first_name", fallback: "reader" } },
          ],
        },
        { type: "conditional", attrs: { filter: { field: "metadata.plan", op: "eq", value: "pro" } }, content: [paragraph("Your pro discount")] },
        { type: "paragraph", content: [{ type: "text", text: "Your topics", marks: [{ type: "link", attrs: { href: "{{preferences_url}}" } }] }] },
        { type: "footer" },
      ],
    };
    sent = (await api.post("/v1/broadcasts", { name: "Sent", subject: "Spring news", from_email: "a@acme.test", content_json: doc })).body.id;
    draft = (await api.post("/v1/broadcasts", { name: "Draft", subject: "Not yet", from_email: "a@acme.test", content_json: doc })).body.id;
    await db.broadcast.update({ where: { id: sent }, data: { status: "sent", started_at: new Date() } });
  });

  it("is not there until the organization turns it on", async () => {
    expect(await publicArchive(org.organizationId)).toBeNull();
    expect(await archivedBroadcastHtml(org.organizationId, sent)).toBeNull();
    expect((await org.owner.api.put("/v1/organization", { public_archive: true })).body.public_archive).toBe(true);
  });

  it("lists the sent broadcasts only, and shows one for nobody in particular, without conditional blocks", async () => {
    const archive = await publicArchive(org.organizationId);
    expect(archive).toMatchObject({ name: "Archivist", broadcasts: [{ id: sent, subject: "Spring news" }] });
    const response = await archivedBroadcast(new Request("http://x"), { params: Promise.resolve({ organizationId: org.organizationId, broadcastId: sent }) });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toMatch(/^sandbox /);
    const html = await response.text();
    expect(html).toContain("Hello reader");
    expect(html).not.toContain("pro discount");
    expect(html).not.toContain("{{");
    // Nobody's preference link leads back to the archive, as the unsubscribe link does, not to an empty href.
    expect(/href="([^"]*)"[^>]*>Your topics</.exec(html)?.[1]).toBe(`${env.appUrl}/archive/${org.organizationId}`);
    expect(await archivedBroadcastHtml(org.organizationId, draft)).toBeNull();
    // Another organization's broadcast is not in this archive, and a malformed id is nobody's.
    const other = await createTestOrg();
    await db.organization.update({ where: { id: other.organizationId }, data: { public_archive: true } });
    expect(await archivedBroadcastHtml(other.organizationId, sent)).toBeNull();
    expect(await archivedBroadcastHtml(org.organizationId, randomId())).toBeNull();
    expect(await publicArchive("../etc")).toBeNull();
  });

  it("renders the archive page with a link to each email", async () => {
    const { default: ArchivePage } = await import("@/app/archive/[organizationId]/page");
    const markup = renderToStaticMarkup(await ArchivePage({ params: Promise.resolve({ organizationId: org.organizationId }) }));
    expect(markup).toContain(`href="/archive/${org.organizationId}/${sent}"`);
    expect(markup).toContain("Spring news");
    expect(markup).not.toContain("Not yet");
  });
});
