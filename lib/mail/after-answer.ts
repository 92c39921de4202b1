import { errorField, log } from "@/lib/log";

/** Work started after a request was answered, still running in this process. */
const running = new Set<Promise<void>>();

/**
 * Runs mail work after the request is answered, so the answer's timing cannot tell what the work
 * found: "Forgot password?" took 159 ms for an address with an account (a link made and mailed)
 * against 6 ms without. Best effort, like all account mail: a failure is logged, and work cut off
 * by a restart is asked for again by the person waiting for the mail.
 */
export function mailAfterAnswer(what: string, work: () => Promise<void>): void {
  const done: Promise<void> = Promise.resolve()
    .then(work)
    .catch((error) => log.error({ err: errorField(error) }, `${what}: the mail work after the answer failed`))
    .finally(() => running.delete(done));
  running.add(done);
}

/** Waits for the mail work started so far (tests read the mail; a shutdown may wait for it). */
export async function settleMailAfterAnswer(): Promise<void> {
  while (running.size > 0) await Promise.all(running);
}
