import type { OrgContext } from "@/lib/domain/context";
import { AppError } from "@/lib/domain/errors";

/**
 * What a key with `sending_access` may call: sending, and cancelling what it scheduled (the
 * service answers another's email as not found). Nothing that reads or changes the organization's
 * other data: a sending key leaked from an application's configuration sends mail, as that
 * application could, and no more. Checked here, where the credential's context meets the
 * operation, for every operation: a new operation is closed to sending keys unless named.
 */
const SENDING_OPERATIONS = new Set(["POST /v1/emails", "POST /v1/emails/batch", "POST /v1/emails/{id}/cancel"]);

export function assertKeyMayCall(ctx: OrgContext, operation: { method: string; path: string }) {
  if (ctx.keyScope?.permission !== "sending_access") return;
  if (SENDING_OPERATIONS.has(`${operation.method} ${operation.path}`)) return;
  throw new AppError(
    "FORBIDDEN",
    "This API key has sending access only: it may send emails (POST /v1/emails, POST /v1/emails/batch) and cancel the ones it scheduled",
  );
}
