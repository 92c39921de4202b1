import { spawn, type ChildProcess } from "node:child_process";

export type WorkerProcess = {
  child: ChildProcess;
  /** Everything it printed, for the failure message of a test. */
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

/** The real worker (`worker/index.ts` through tsx) as a child process on the given database. */
export function startWorkerProcess(databaseUrl: string, env: Record<string, string> = {}): WorkerProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "worker/index.ts"], {
    env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: "test", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => log, exited };
}

/** Polls `check` until it holds or the time runs out. */
export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
