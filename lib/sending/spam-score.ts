import { execFile } from "node:child_process";
import { env } from "@/lib/env";

export type SpamScore = { available: true; score: number; threshold: number; rules: string[] } | { available: false; reason: string };

const TIMEOUT_MS = 45_000;
let queue: Promise<unknown> = Promise.resolve();

/**
 * SpamAssassin's score of a message, with local rules only (`-L`: no DNS or network tests) and a
 * time limit. One run at a time per process: each loads its rules anew and takes a core while it does.
 */
export function spamScore(raw: Buffer): Promise<SpamScore> {
  const run = queue.then(
    () =>
      new Promise<SpamScore>((resolve) => {
        const child = execFile(env.spamassassinPath, ["-L", "-t"], { timeout: TIMEOUT_MS, maxBuffer: 8 * 1024 * 1024 }, (error, stdout) => {
          const status = /^X-Spam-Status:\s*(\w+),\s*score=(-?[\d.]+)\s+required=(-?[\d.]+)(?:\s+tests=([\s\S]*?)(?:\s+autolearn=|\s+version=|\r?\n\S))/im.exec(
            stdout,
          );
          if (status) {
            const rules = (status[4] ?? "").split(/[\s,]+/).filter((rule) => rule && rule !== "none");
            return resolve({ available: true, score: Number(status[2]), threshold: Number(status[3]), rules: rules.slice(0, 20) });
          }
          const code = (error as NodeJS.ErrnoException | null)?.code;
          if (code === "ENOENT") return resolve({ available: false, reason: "SpamAssassin is not installed on this server" });
          if ((error as { killed?: boolean } | null)?.killed) return resolve({ available: false, reason: "SpamAssassin did not answer in time" });
          resolve({ available: false, reason: "SpamAssassin gave no score" });
        });
        child.stdin?.on("error", () => undefined);
        child.stdin?.end(raw);
      }),
  );
  queue = run.catch(() => undefined);
  return run;
}
