import { spawn, type ChildProcess } from "node:child_process";

/** One supervised child: node with these arguments (the launcher's own Node binary). */
export type ChildSpec = { name: string; args: string[]; env?: NodeJS.ProcessEnv };

export type SupervisorOptions = {
  /** First wait before a restart; doubled after each quick crash, up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /**
   * A child that ran this long before dying starts again at the first wait. Long enough to tell a
   * crash loop (a worker that cannot start dies within a second or two); short enough that a worker
   * killed after some seconds of work is back at once, to take over what its predecessor held
   * (with a minute here, the fifth kill in a minute waited 16 s for its restart).
   */
  healthyAfterMs?: number;
  /** How long a stop waits for the children to finish before killing them. */
  stopTimeoutMs?: number;
  log?: (line: string) => void;
};

/**
 * Keeps child processes running: one that exits unexpectedly (a crash, a kill) is started again
 * after a backoff that grows while it keeps dying quickly, and the others go on untouched. `stop`
 * forwards the signal to every child and waits for each to finish its work in flight — at most
 * `stopTimeoutMs`, then SIGKILL — so nothing is cut off mid-send.
 */
export function supervise(specs: ChildSpec[], options: SupervisorOptions = {}) {
  const backoffMs = options.backoffMs ?? 1_000;
  const maxBackoffMs = options.maxBackoffMs ?? 30_000;
  const healthyAfterMs = options.healthyAfterMs ?? 5_000;
  const stopTimeoutMs = options.stopTimeoutMs ?? 30_000;
  const log = options.log ?? ((line: string) => console.log(line));
  let stopping = false;

  type Slot = { spec: ChildSpec; child: ChildProcess | null; exited: Promise<void>; restarts: number; timer: NodeJS.Timeout | null };
  const slots: Slot[] = specs.map((spec) => ({ spec, child: null, exited: Promise.resolve(), restarts: 0, timer: null }));

  function start(slot: Slot) {
    slot.timer = null;
    if (stopping) return;
    const startedAt = Date.now();
    const child = spawn(process.execPath, slot.spec.args, { stdio: "inherit", env: slot.spec.env ?? process.env });
    slot.child = child;
    slot.exited = new Promise((resolve) => {
      child.on("exit", (code, signal) => {
        slot.child = null;
        resolve();
        if (stopping) return;
        if (Date.now() - startedAt >= healthyAfterMs) slot.restarts = 0;
        const wait = Math.min(maxBackoffMs, backoffMs * 2 ** slot.restarts);
        slot.restarts++;
        log(`[launch] ${slot.spec.name} exited (${signal ?? `code ${code}`}); starting it again in ${wait} ms`);
        slot.timer = setTimeout(() => start(slot), wait);
      });
      child.on("error", (error) => log(`[launch] ${slot.spec.name} could not start: ${error.message}`));
    });
  }

  for (const slot of slots) start(slot);

  return {
    /** The pid of each running child, by name. */
    pids: () => Object.fromEntries(slots.map((slot) => [slot.spec.name, slot.child?.pid ?? null])),
    async stop(signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
      if (stopping) return;
      stopping = true;
      log(`[launch] ${signal}: stopping ${slots.map((s) => s.spec.name).join(" and ")}, waiting for work in flight`);
      for (const slot of slots) {
        if (slot.timer) clearTimeout(slot.timer);
        slot.child?.kill(signal);
      }
      const killer = setTimeout(() => {
        for (const slot of slots) {
          if (!slot.child) continue;
          log(`[launch] ${slot.spec.name} still running after ${stopTimeoutMs} ms; killing it`);
          slot.child.kill("SIGKILL");
        }
      }, stopTimeoutMs);
      await Promise.all(slots.map((slot) => slot.exited));
      clearTimeout(killer);
      log("[launch] stopped");
    },
  };
}
