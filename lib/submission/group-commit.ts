import type { OrgContext } from "@/lib/domain/context";
import { AppError } from "@/lib/domain/errors";
import { idempotencyBody, submitEmail } from "@/lib/services/send-emails";
import { hashOf } from "@/lib/services/idempotency";
import type { EmailRequest } from "@/lib/services/transactional";
import { createEmailsAtOnce, takesAtOnce } from "@/lib/services/transactional-at-once";

/** Most messages written by one transaction. */
const MAX_GROUP = 32;
/** Transactions of one key in flight at once; the messages that arrive meanwhile wait and go together. */
const IN_FLIGHT = 2;

type Waiting = { request: EmailRequest; key: string | null; resolve: (answer: { id: string }) => void; reject: (error: unknown) => void };
type Lane = { ctx: OrgContext; waiting: Waiting[]; inFlight: number };

/**
 * Group commit for SMTP submission: the messages of one API key that arrive while its earlier ones
 * are being written go into the database together, checked and written by one prepared statement
 * (createEmailsAtOnce: the verified domains, suppressions and contacts read, and the idempotency
 * keys, threads and emails written, in one round trip without a transaction). A message costs a
 * share of one round trip where it had seven of its own in series (against the one insert of a
 * server that only stores), which on a busy machine was most of its time. A message alone goes the
 * same way, as a group of one. Each message hears its own answer (a refused one does not refuse
 * the others); a repeated Message-ID never shares a group with its twin.
 */
export class GroupCommit {
  private readonly lanes = new Map<string, Lane>();

  submit(ctx: OrgContext, request: EmailRequest, key: string | null): Promise<{ id: string }> {
    return new Promise((resolve, reject) => {
      const id = ctx.apiKeyId ?? ctx.userId;
      let lane = this.lanes.get(id);
      if (!lane) this.lanes.set(id, (lane = { ctx, waiting: [], inFlight: 0 }));
      lane.waiting.push({ request, key, resolve, reject });
      // The messages that arrive in this turn of the event loop go with it.
      if (lane.waiting.length === 1) setImmediate(() => this.pump(id));
    });
  }

  private pump(id: string) {
    const lane = this.lanes.get(id);
    if (!lane) return;
    while (lane.inFlight < IN_FLIGHT && lane.waiting.length > 0) {
      const group: Waiting[] = [];
      const keys = new Set<string>();
      while (group.length < MAX_GROUP && lane.waiting.length > 0 && !(lane.waiting[0].key !== null && keys.has(lane.waiting[0].key))) {
        const next = lane.waiting.shift()!;
        if (next.key !== null) keys.add(next.key);
        group.push(next);
      }
      lane.inFlight++;
      void this.commit(lane.ctx, group).finally(() => {
        lane.inFlight--;
        if (lane.inFlight === 0 && lane.waiting.length === 0) this.lanes.delete(id);
        else this.pump(id);
      });
    }
  }

  private async commit(ctx: OrgContext, group: Waiting[]) {
    // With files (their parts are written in a transaction of their own), an inbox or a template: the single path.
    const alone = group.filter((w) => !takesAtOnce(w.request));
    const together = group.filter((w) => takesAtOnce(w.request));
    const single = (w: Waiting) => submitEmail(ctx, w.request, w.key).then(w.resolve, w.reject);
    await Promise.all(alone.map(single));
    if (together.length === 0) return;
    try {
      const answers = await createEmailsAtOnce(
        ctx,
        together.map((w) => ({ ...w.request, idempotencyKey: w.key, requestHash: w.key === null ? null : hashOf(idempotencyBody(w.request)) })),
      );
      answers.forEach((answer, i) => (answer instanceof AppError ? together[i].reject(answer) : together[i].resolve(answer)));
    } catch (error) {
      // Each message's refusal comes back in its place; what is thrown (the database away) is every message's.
      together.forEach((w) => w.reject(error));
    }
  }
}
