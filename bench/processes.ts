import { fork, spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, type WriteStream } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { RssSampler } from "./rss";
import { WEB_SERVER_NODE_FLAGS } from "../scripts/web-server-flags";

const require = createRequire(import.meta.url);

/** A child process of the benchmark whose output goes to a log file. */
class Child {
  protected child: ChildProcess | null = null;
  private readonly log: WriteStream;

  constructor(
    protected readonly name: string,
    logFile: string,
    protected readonly env: NodeJS.ProcessEnv,
  ) {
    this.log = createWriteStream(logFile, { flags: "a" });
  }

  protected spawn(args: string[]) {
    this.log.write(`\n--- ${this.name} started ${new Date().toISOString()}\n`);
    const child = spawn(process.execPath, args, { cwd: process.cwd(), env: this.env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout!.pipe(this.log, { end: false });
    child.stderr!.pipe(this.log, { end: false });
    this.child = child;
    return child;
  }

  get pid(): number {
    if (!this.child?.pid) throw new Error(`${this.name} is not running`);
    return this.child.pid;
  }

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  async stop() {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    const timedOut = await Promise.race([exited.then(() => false), sleep(10_000).then(() => true)]);
    if (timedOut) {
      child.kill("SIGKILL");
      await exited;
    }
  }
}

/** `next start` of the production build, its RSS sampled while it runs. */
export class ProductServer extends Child {
  private sampler: RssSampler | null = null;

  constructor(
    readonly port: number,
    logFile: string,
    env: NodeJS.ProcessEnv,
  ) {
    super("next start", logFile, env);
  }

  async start() {
    // BENCH_PROFILE=<dir>: the server (and the worker) write a V8 CPU profile there when they stop (open it in Chrome's DevTools).
    const profile = process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
    const child = this.spawn([
      ...profile,
      ...WEB_SERVER_NODE_FLAGS,
      require.resolve("next/dist/bin/next"),
      "start",
      "-p",
      String(this.port),
      "-H",
      "127.0.0.1",
    ]);
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}; see the server log`);
      try {
        const response = await fetch(`http://127.0.0.1:${this.port}/api/health`);
        if (response.status === 200) {
          this.sampler = new RssSampler(this.pid);
          return;
        }
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
    throw new Error("next start did not answer /api/health within 60 s");
  }

  get rss(): RssSampler {
    if (!this.sampler) throw new Error("the server is not running");
    return this.sampler;
  }

  async stop() {
    await this.sampler?.stop();
    this.sampler = null;
    await super.stop();
  }

  async restart() {
    await this.stop();
    await this.start();
  }
}

/** The sending worker (worker/index.ts), run as `npm run worker` runs it. */
export class SendingWorker extends Child {
  constructor(logFile: string, env: NodeJS.ProcessEnv) {
    super("worker", logFile, env);
  }

  start(entry: string) {
    const profile = process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
    this.spawn([...profile, "--import", "tsx", entry]);
  }

  /** Starts it and resolves once it says it runs its loops (worker/index.ts), so a timing does not include its start. */
  async startReady(entry: string, timeoutMs = 60_000) {
    this.start(entry);
    const child = this.child!;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the worker did not start within ${timeoutMs / 1000} s`)), timeoutMs);
      child.stdout!.on("data", (chunk: Buffer) => {
        if (!chunk.toString("utf8").includes("[worker] running")) return;
        clearTimeout(timer);
        resolve();
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`the worker exited with ${code} while starting`));
      });
    });
  }

  get exitCode() {
    return this.child?.exitCode ?? null;
  }
}

/**
 * The bare smtp-server of bare-inbound.ts in a process of its own (the intake and submission
 * scenarios' baseline): it stores each message in one table and nothing else. Answers its port.
 */
export async function startBareSmtpServer(databaseUrl: string): Promise<{ port: number; stop: () => void }> {
  const child = fork(path.join(import.meta.dirname, "bare-inbound.ts"), [], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the bare SMTP server exited with ${code}`)));
    child.once("message", (message: { port: number }) => resolve(message.port));
  });
  child.removeAllListeners("exit");
  return { port, stop: () => child.disconnect() };
}
