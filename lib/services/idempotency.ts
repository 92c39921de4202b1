import { createHash } from "node:crypto";
import type { OrgContext } from "@/lib/domain/context";
import { AppError, invalidField } from "@/lib/domain/errors";
import { db, type Prisma } from "@/lib/db";

const MAX_KEY_LENGTH = 255;

/** The `Idempotency-Key` header: absent, or printable ASCII up to 255 characters (400 otherwise). */
export function readIdempotencyKey(request: Request): string | null {
  const key = request.headers.get("idempotency-key");
  if (key === null) return null;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw invalidField("Idempotency-Key", `must be 1 to ${MAX_KEY_LENGTH} printable ASCII characters without spaces`);
  }
  return key;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

const hashOf = (body: unknown) =>
  createHash("sha256")
    .update(JSON.stringify(canonical(body)))
    .digest("hex");

/**
 * Runs `create` once per key and organization for 24 hours: a repeat with the same body answers
 * what the first answered; the same key with another body is 409 CONFLICT. The key row is taken
 * first in the same transaction, so a concurrent repeat waits for the first and then replays it.
 */
export async function withIdempotency<T>(ctx: OrgContext, key: string | null, body: unknown, create: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  if (key === null) return db.$transaction(create);
  const hash = hashOf(body);
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`
      DELETE FROM idempotency_keys
      WHERE organization_id = ${ctx.organizationId}::uuid AND key = ${key} AND created_at < now() - interval '24 hours'`;
    const taken = await tx.$executeRaw`
      INSERT INTO idempotency_keys (organization_id, key, request_hash, status_code, response)
      VALUES (${ctx.organizationId}::uuid, ${key}, ${hash}, 0, '{}'::jsonb)
      ON CONFLICT (organization_id, key) DO NOTHING`;
    if (taken === 0) {
      const earlier = await tx.idempotencyKey.findUniqueOrThrow({ where: { organization_id_key: { organization_id: ctx.organizationId, key } } });
      if (earlier.request_hash !== hash) {
        throw new AppError("CONFLICT", "This Idempotency-Key was used with a different request in the last 24 hours");
      }
      return earlier.response as T;
    }
    const result = await create(tx);
    await tx.idempotencyKey.update({
      where: { organization_id_key: { organization_id: ctx.organizationId, key } },
      data: { status_code: 201, response: JSON.parse(JSON.stringify(result)) as Prisma.InputJsonValue },
    });
    return result;
  });
}

export type Keyed = { key: string | null; body: unknown };

/**
 * `withIdempotency` for several requests in one transaction (SMTP submission commits the messages
 * that arrive together at once): `create` makes the results of the ones not answered before, in
 * their order; each repeat answers its earlier result, each key reused with another body a 409
 * CONFLICT error in its place. The keys are taken in one statement (an expired one taken over), so a
 * concurrent repeat waits for this transaction, as in the single form. Keys must differ.
 */
export async function withIdempotencyMany<T>(
  ctx: OrgContext,
  entries: Keyed[],
  create: (tx: Prisma.TransactionClient, fresh: number[]) => Promise<T[]>,
): Promise<(T | AppError)[]> {
  const hashes = entries.map((entry) => (entry.key === null ? null : hashOf(entry.body)));
  const keyed = entries.flatMap((entry, i) => (entry.key === null ? [] : [{ key: entry.key, hash: hashes[i]!, index: i }]));
  return db.$transaction(async (tx) => {
    const taken = new Set<string>();
    const earlier = new Map<string, { request_hash: string; response: unknown }>();
    if (keyed.length > 0) {
      const rows = await tx.$queryRaw<{ key: string }[]>`
        INSERT INTO idempotency_keys (organization_id, key, request_hash, status_code, response)
        SELECT ${ctx.organizationId}::uuid, k, h, 0, '{}'::jsonb FROM unnest(${keyed.map((k) => k.key)}::text[], ${keyed.map((k) => k.hash)}::text[]) AS u(k, h)
        ON CONFLICT (organization_id, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, status_code = 0, response = '{}'::jsonb, created_at = now()
          WHERE idempotency_keys.created_at < now() - interval '24 hours'
        RETURNING key`;
      for (const row of rows) taken.add(row.key);
      const repeats = keyed.filter((k) => !taken.has(k.key)).map((k) => k.key);
      if (repeats.length > 0) {
        const found = await tx.idempotencyKey.findMany({
          where: { organization_id: ctx.organizationId, key: { in: repeats } },
          select: { key: true, request_hash: true, response: true },
        });
        for (const row of found) earlier.set(row.key, row);
      }
    }
    const results: (T | AppError)[] = new Array(entries.length);
    const fresh: number[] = [];
    entries.forEach((entry, i) => {
      if (entry.key === null || taken.has(entry.key)) return fresh.push(i);
      const before = earlier.get(entry.key);
      results[i] =
        before && before.request_hash === hashes[i]
          ? (before.response as T)
          : new AppError("CONFLICT", "This Idempotency-Key was used with a different request in the last 24 hours");
    });
    const created = fresh.length > 0 ? await create(tx, fresh) : [];
    fresh.forEach((index, i) => (results[index] = created[i]));
    const answered = fresh.filter((i) => entries[i].key !== null);
    if (answered.length > 0) {
      await tx.$executeRaw`
        UPDATE idempotency_keys k SET status_code = 201, response = u.r
        FROM unnest(${answered.map((i) => entries[i].key!)}::text[], ${answered.map((i) => JSON.stringify(results[i]))}::jsonb[]) AS u(key, r)
        WHERE k.organization_id = ${ctx.organizationId}::uuid AND k.key = u.key`;
    }
    return results;
  });
}
