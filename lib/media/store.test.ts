import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testImages } from "@/lib/testing/images";
import { localMediaStore, s3MediaStore, type MediaStore } from "./store";

const read = async (store: MediaStore, key: string) => {
  const object = await store.get(key);
  return object ? Buffer.from(await new Response(object.body).arrayBuffer()) : null;
};

// The same behaviour from both stores: the local disk (the default), and a real S3 server (s3rver
// speaks the S3 REST API with SigV4 over HTTP) reached through the AWS SDK, as MEDIA_S3_* configure it.
describe.each(["local", "s3"] as const)("the %s media store", (kind) => {
  let store: MediaStore;
  let server: S3rver | undefined;
  const dir = mkdtempSync(path.join(os.tmpdir(), "media-store-"));

  beforeAll(async () => {
    if (kind === "local") {
      store = localMediaStore(path.join(dir, "media"));
      return;
    }
    server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: dir, configureBuckets: [{ name: "media", configs: [] }] });
    const { port } = await server.run();
    store = s3MediaStore({
      bucket: "media",
      endpoint: `http://127.0.0.1:${port}`,
      region: "us-east-1",
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
      prefix: "media/",
    });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps bytes under a key, gives them back with their size, and forgets them on delete", async () => {
    await store.put("abcdefghijklmnopqrstuvwx.png", testImages.png, "image/png");
    const object = await store.get("abcdefghijklmnopqrstuvwx.png");
    expect(object?.size).toBe(testImages.png.length);
    expect(await read(store, "abcdefghijklmnopqrstuvwx.png")).toEqual(testImages.png);
    await store.delete("abcdefghijklmnopqrstuvwx.png");
    expect(await store.get("abcdefghijklmnopqrstuvwx.png")).toBeNull();
  });

  it("answers null for a key it never had, and deleting one is no error", async () => {
    expect(await store.get("neverstoredneverstored00.gif")).toBeNull();
    await expect(store.delete("neverstoredneverstored00.gif")).resolves.toBeUndefined();
  });
});
