import { spawn } from "node:child_process";
import { env } from "@/lib/env";

export type SpamScore = { available: true; score: number; threshold: number; rules: string[] } | { available: false; reason: string };

const TIMEOUT_MS = 45_000;
const MAX_OUTPUT_BYTES = 8 * 1024 * 1024;
/** Checks waiting in one process, all organizations together: each holds its message until its turn. */
const MAX_WAITING = 100;

type Job = { organizationId: string; raw: Buffer; signal?: AbortSignal; resolve: (score: SpamScore) => void };

// One run at a time per process: each loads its rules anew and takes a core while it does. The
// waiting checks are kept per organization and served round-robin (the organization served least
// recently goes first), so one organization's checks delay another's by at most the run under way.
const waiting = new Map<string, Job[]>();
/** Organizations with a check running or waiting, by when they last had one started. */
const lastServed = new Map<string, number>();
const held = new Map<string, number>();
let running = false;
let waitingCount = 0;
let served = 0;

const unavailable = (reason: string): SpamScore => ({ available: false, reason });
const CANCELLED = unavailable("The check was cancelled");

function release(organizationId: string) {
  const left = (held.get(organizationId) ?? 1) - 1;
  if (left > 0) return held.set(organizationId, left);
  held.delete(organizationId);
  lastServed.delete(organizationId);
}

function takeNext(): Job | undefined {
  let pick: string | undefined;
  for (const organizationId of waiting.keys())
    if (pick === undefined || (lastServed.get(organizationId) ?? -1) < (lastServed.get(pick) ?? -1)) pick = organizationId;
  if (pick === undefined) return undefined;
  const queue = waiting.get(pick)!;
  const job = queue.shift()!;
  if (queue.length === 0) waiting.delete(pick);
  waitingCount -= 1;
  lastServed.set(pick, ++served);
  return job;
}

function pump() {
  if (running) return;
  const job = takeNext();
  if (!job) return;
  running = true;
  void runSpamAssassin(job.raw, job.signal).then((score) => {
    running = false;
    release(job.organizationId);
    job.resolve(score);
    pump();
  });
}

/**
 * SpamAssassin's score of a message, with local rules only (`-L`: no DNS or network tests) and a
 * time limit. An organization holds at most SPAMASSASSIN_CHECKS_PER_ORGANIZATION checks (running or
 * waiting) in a process; past that, or past MAX_WAITING in all, the answer is at once that it is
 * busy. A check whose signal aborts (the client went away) leaves the queue, or has its run stopped.
 */
export function spamScore(raw: Buffer, options: { organizationId: string; signal?: AbortSignal }): Promise<SpamScore> {
  const { organizationId, signal } = options;
  if (signal?.aborted) return Promise.resolve(CANCELLED);
  if ((held.get(organizationId) ?? 0) >= env.spamassassinChecksPerOrganization)
    return Promise.resolve(unavailable("SpamAssassin is busy with this organization's other checks; try again in a moment"));
  if (waitingCount >= MAX_WAITING) return Promise.resolve(unavailable("SpamAssassin is busy; try again in a moment"));
  return new Promise((resolve) => {
    const job: Job = { organizationId, raw, signal, resolve };
    held.set(organizationId, (held.get(organizationId) ?? 0) + 1);
    const queue = waiting.get(organizationId) ?? [];
    queue.push(job);
    waiting.set(organizationId, queue);
    waitingCount += 1;
    // Gone while it waits: out of the queue at once (a running check is stopped by its run).
    signal?.addEventListener(
      "abort",
      () => {
        const index = waiting.get(organizationId)?.indexOf(job) ?? -1;
        if (index < 0) return;
        waiting.get(organizationId)!.splice(index, 1);
        if (waiting.get(organizationId)!.length === 0) waiting.delete(organizationId);
        waitingCount -= 1;
        release(organizationId);
        resolve(CANCELLED);
      },
      { once: true },
    );
    pump();
  });
}

function runSpamAssassin(raw: Buffer, signal: AbortSignal | undefined): Promise<SpamScore> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(CANCELLED);
    let settled = false;
    let stopped: "timeout" | "output" | null = null;
    const chunks: Buffer[] = [];
    let size = 0;
    const child = spawn(env.spamassassinPath, ["-L", "-t"], { stdio: ["pipe", "pipe", "ignore"], signal });
    const timer = setTimeout(() => {
      stopped = "timeout";
      child.kill();
    }, TIMEOUT_MS);
    const settle = (score: SpamScore) => {
      clearTimeout(timer);
      if (settled) return;
      settled = true;
      resolve(score);
    };
    child.stdout.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_OUTPUT_BYTES) return void chunks.push(chunk);
      stopped = "output";
      child.kill();
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") settle(unavailable("SpamAssassin is not installed on this server"));
      else settle(signal?.aborted ? CANCELLED : unavailable("SpamAssassin could not be run"));
    });
    // A stopped run answers when the process ends, not when every descendant has closed its output.
    child.on("exit", () => {
      if (signal?.aborted) settle(CANCELLED);
      else if (stopped === "timeout") settle(unavailable("SpamAssassin did not answer in time"));
      else if (stopped === "output") settle(unavailable("SpamAssassin gave no score"));
    });
    child.on("close", () => settle(readScore(Buffer.concat(chunks).toString("utf8"))));
    child.stdin.on("error", () => undefined);
    child.stdin.end(raw);
  });
}

function readScore(stdout: string): SpamScore {
  const status = /^X-Spam-Status:\s*(\w+),\s*score=(-?[\d.]+)\s+required=(-?[\d.]+)(?:\s+tests=([\s\S]*?)(?:\s+autolearn=|\s+version=|\r?\n\S))/im.exec(stdout);
  if (!status) return unavailable("SpamAssassin gave no score");
  const rules = (status[4] ?? "").split(/[\s,]+/).filter((rule) => rule && rule !== "none");
  return { available: true, score: Number(status[2]), threshold: Number(status[3]), rules: rules.slice(0, 20) };
}
