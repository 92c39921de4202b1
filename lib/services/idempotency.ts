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

/** 409: the key answered another body in the last 24 hours (here, and for each message of SMTP submission's groups). */
export const idempotencyConflict = () => new AppError("CONFLICT", "This Idempotency-Key was used with a different request in the last 24 hours");

export const hashOf = (body: unknown) =>
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
        throw idempotencyConflict();
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
