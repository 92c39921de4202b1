import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { serveMedia } from "@/lib/media/serve";
import { mediaStore } from "@/lib/media/store";
import { testImages } from "@/lib/testing/images";
import { createTestOrg, expectError, randomId, request, type TestOrg } from "@/lib/testing/api";

const form = (bytes: Buffer, filename: string, type = "application/octet-stream") => {
  const data = new FormData();
  data.append("file", new Blob([new Uint8Array(bytes)], { type }), filename);
  return data;
};

const upload = (org: TestOrg, bytes: Buffer, filename: string) => request("POST", "/v1/media", { token: org.owner.token, form: form(bytes, filename) });
const keyOf = (url: string) => new URL(url).pathname.replace(/^\/m\//, "");

describe("Media", () => {
  let org: TestOrg;
  let other: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
  });

  it("takes a PNG as multipart/form-data (201) and serves it at its URL with a year-long Cache-Control", async () => {
    const created = await upload(org, testImages.png, "logo.png");
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      url: expect.stringMatching(new RegExp(`^${env.appUrl}/m/[A-Za-z0-9_-]{24}\\.png$`)),
      filename: "logo.png",
      content_type: "image/png",
      size: testImages.png.length,
      created_at: expect.any(String),
    });
    const served = await serveMedia(keyOf(created.body.url));
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(Buffer.from(await served.arrayBuffer())).toEqual(testImages.png);
  });

  it("takes the JSON form too, and types the file by its bytes, not its name", async () => {
    const created = await org.owner.api.post("/v1/media", { filename: "picture.png", content: testImages.gif.toString("base64") });
    expect(created.status).toBe(201);
    expect(created.body.content_type).toBe("image/gif");
    expect(created.body.url).toMatch(/\.gif$/);
  });

  it.each([
    ["a program named .exe", testImages.exe, "setup.exe"],
    ["a program named .png", testImages.exe, "innocent.png"],
    ["an SVG", testImages.svg, "logo.svg"],
  ])("refuses %s with 400 naming file, and stores nothing", async (_what, bytes, filename) => {
    const before = await db.media.count({ where: { organization_id: org.organizationId } });
    const error = expectError(await upload(org, bytes, filename), 400, "VALIDATION_ERROR");
    expect(error.details?.map((d) => d.path)).toEqual(["file"]);
    expect(await db.media.count({ where: { organization_id: org.organizationId } })).toBe(before);
  });

  it("refuses a 20 MB upload with 413 saying the image limit, in either form, and an image just over 5 MB too", async () => {
    // The body's own limit (the image's in base64, and room) is not one a caller knows: the answer names the image's.
    const big = Buffer.concat([testImages.png, Buffer.alloc(20 * 1024 * 1024)]);
    expect(expectError(await upload(org, big, "huge.png"), 413, "PAYLOAD_TOO_LARGE").error).toBe("An image may be at most 5 MB");
    const bigJson = await org.owner.api.post("/v1/media", { filename: "huge.png", content: big.toString("base64") });
    expect(expectError(bigJson, 413, "PAYLOAD_TOO_LARGE").error).toBe("An image may be at most 5 MB");
    const over = Buffer.concat([testImages.png, Buffer.alloc(5 * 1024 * 1024 + 1 - testImages.png.length)]);
    const overJson = await org.owner.api.post("/v1/media", { filename: "big.png", content: over.toString("base64") });
    expect(expectError(overJson, 413, "PAYLOAD_TOO_LARGE").error).toBe("An image may be at most 5 MB");
  });

  it("refuses a body that is neither JSON nor multipart (415) and a form without a file (400)", async () => {
    expectError(await request("POST", "/v1/media", { token: org.owner.token, rawBody: "x", headers: { "content-type": "text/plain" } }), 415);
    const data = new FormData();
    data.append("file", "just text");
    const error = expectError(await request("POST", "/v1/media", { token: org.owner.token, form: data }), 400, "VALIDATION_ERROR");
    expect(error.details?.[0].path).toBe("file");
  });

  describe("the allowance per organization", () => {
    const original = env.mediaMaxBytesPerOrganization;
    afterEach(() => {
      (env as { mediaMaxBytesPerOrganization: number }).mediaMaxBytesPerOrganization = original;
    });

    it("refuses an upload past it with 413 and leaves no file behind", async () => {
      const small = await createTestOrg();
      (env as { mediaMaxBytesPerOrganization: number }).mediaMaxBytesPerOrganization = testImages.png.length * 2;
      expect((await upload(small, testImages.png, "a.png")).status).toBe(201);
      expect((await upload(small, testImages.png, "b.png")).status).toBe(201);
      const files = await db.media.count();
      const refused = expectError(await upload(small, testImages.png, "c.png"), 413, "PAYLOAD_TOO_LARGE");
      expect(refused.error).toMatch(/media library is full/);
      expect(await db.media.count()).toBe(files);
    });
  });

  it("lists the organization's images newest first, and no one else's", async () => {
    const mine = await createTestOrg();
    const first = await upload(mine, testImages.png, "first.png");
    const second = await upload(mine, testImages.gif, "second.gif");
    await upload(other, testImages.png, "theirs.png");
    const list = await mine.owner.api.get("/v1/media");
    expect(list.status).toBe(200);
    expect(list.body.data.map((m: { id: string }) => m.id)).toEqual([second.body.id, first.body.id]);
    const paged = await mine.owner.api.get("/v1/media?limit=1");
    expect(paged.body).toMatchObject({ object: "list", has_more: true, data: [{ id: second.body.id }] });
  });

  it("deletes an image: its URL answers 404 and its file is gone; another organization's id is 404", async () => {
    const created = await upload(org, testImages.png, "gone.png");
    expectError(await other.owner.api.delete(`/v1/media/${created.body.id}`), 404, "NOT_FOUND");
    expect((await serveMedia(keyOf(created.body.url))).status).toBe(200);
    expect((await org.owner.api.delete(`/v1/media/${created.body.id}`)).body).toEqual({ success: true });
    expect((await serveMedia(keyOf(created.body.url))).status).toBe(404);
    expect(await mediaStore().get(keyOf(created.body.url))).toBeNull();
    expectError(await org.owner.api.delete(`/v1/media/${randomId()}`), 404, "NOT_FOUND");
  });

  it("answers 404 for a key that was never issued or is malformed", async () => {
    expect((await serveMedia("AAAAAAAAAAAAAAAAAAAAAAAA.png")).status).toBe(404);
    expect((await serveMedia("../../etc/passwd")).status).toBe(404);
  });
});
