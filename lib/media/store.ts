import { createReadStream } from "node:fs";
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { env } from "@/lib/env";

/** Where the bytes of uploaded images live; the `media` table says what they are and whose. */
export type MediaStore = {
  put: (key: string, bytes: Buffer, contentType: string) => Promise<void>;
  /** The bytes as a stream, or null when the store has no such object. */
  get: (key: string) => Promise<{ body: ReadableStream<Uint8Array>; size: number | null } | null>;
  delete: (key: string) => Promise<void>;
};

/** Files under `<DATA_DIR>/media`, written to a temporary name first so a reader never sees half a file. */
export function localMediaStore(root: string): MediaStore {
  const file = (key: string) => path.join(root, key.slice(0, 2), key);
  return {
    async put(key, bytes) {
      const target = file(key);
      await mkdir(path.dirname(target), { recursive: true });
      const partial = `${target}.${process.pid}.partial`;
      await writeFile(partial, bytes, { mode: 0o640 });
      await rename(partial, target);
    },
    async get(key) {
      const target = file(key);
      const info = await stat(target).catch(() => null);
      if (!info?.isFile()) return null;
      return { body: Readable.toWeb(createReadStream(target)) as ReadableStream<Uint8Array>, size: info.size };
    },
    async delete(key) {
      await rm(file(key), { force: true });
    },
  };
}

export type S3Settings = {
  bucket: string;
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Prefix of every object's key, e.g. `media/`. */
  prefix: string;
};

/** Objects in an S3-compatible bucket (AWS S3, MinIO, R2, …), read back through the app so their URLs stay the app's. */
export function s3MediaStore(settings: S3Settings): MediaStore {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
  });
  const Key = (key: string) => `${settings.prefix}${key}`;
  return {
    async put(key, bytes, contentType) {
      await client.send(new PutObjectCommand({ Bucket: settings.bucket, Key: Key(key), Body: bytes, ContentType: contentType }));
    },
    async get(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: settings.bucket, Key: Key(key) }));
        if (!object.Body) return null;
        return { body: object.Body.transformToWebStream() as ReadableStream<Uint8Array>, size: object.ContentLength ?? null };
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: settings.bucket, Key: Key(key) }));
    },
  };
}

let configured: MediaStore | undefined;

/** The store the settings choose: S3 when MEDIA_S3_BUCKET is set, else the local disk. */
export function mediaStore(): MediaStore {
  configured ??= env.mediaS3 ? s3MediaStore({ ...env.mediaS3, prefix: "media/" }) : localMediaStore(path.join(env.dataDir, "media"));
  return configured;
}
