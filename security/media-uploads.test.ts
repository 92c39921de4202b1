import { beforeAll, describe, expect, it } from "vitest";
import { GET as serve } from "@/app/m/[key]/route";
import { uploadMediaOperation } from "@/lib/api/operations/media";
import { execute } from "@/lib/api/route";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { testImages } from "@/lib/testing/images";
import { createTestOrg, sessionCookie, type TestOrg } from "@/lib/testing/api";

// Uploaded images are served from the app's own origin: a file that a browser would run (SVG with a
// script, HTML named .png) would be stored XSS on the dashboard's origin. And the upload takes
// multipart/form-data, which any site's HTML form can post with the victim's cookie.

const formOf = (bytes: Buffer, name: string, type: string) => {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), name);
  return form;
};
const post = (headers: Record<string, string>, form: FormData) =>
  execute(uploadMediaOperation, new Request(new URL("/v1/media", env.appUrl), { method: "POST", headers, body: form }));

let org: TestOrg;
beforeAll(async () => {
  org = await createTestOrg("Media attacks");
});
const count = () => db.media.count({ where: { organization_id: org.organizationId } });

describe("the media library", () => {
  it("refuses an HTML page or an SVG whatever the name and type it claims", async () => {
    const html = Buffer.from("<html><script>fetch('/v1/api-keys',{method:'POST'})</script></html>");
    for (const [bytes, name, type] of [
      [html, "cute.png", "image/png"],
      [testImages.svg, "logo.svg", "image/svg+xml"],
      [testImages.svg, "logo.png", "image/png"],
    ] as const) {
      const response = await post({ authorization: `Bearer ${org.owner.token}` }, formOf(bytes, name, type));
      expect(response.status, name).toBe(400);
    }
    expect(await count()).toBe(0);
  });

  it("refuses a form posted from another site with the session cookie (403) and stores nothing", async () => {
    const cookie = await sessionCookie(org.owner);
    const response = await post({ cookie, origin: "https://evil.test" }, formOf(testImages.png, "x.png", "image/png"));
    expect(response.status).toBe(403);
    expect(await count()).toBe(0);
    const own = await post({ cookie, origin: new URL(env.appUrl).origin }, formOf(testImages.png, "x.png", "image/png"));
    expect(own.status).toBe(201);
  });

  it("serves an image with the type found at upload and a policy under which nothing runs", async () => {
    const response = await post({ authorization: `Bearer ${org.owner.token}` }, formOf(testImages.gif, "page.html", "text/html"));
    expect(response.status).toBe(201);
    const { url } = (await response.json()) as { url: string };
    const key = new URL(url).pathname.split("/").pop()!;
    const served = await serve(new Request(url), { params: Promise.resolve({ key }) });
    expect(served.headers.get("content-type")).toBe("image/gif");
    expect(served.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
  });
});
