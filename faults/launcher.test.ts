import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOwnCluster, type OwnCluster } from "@/lib/testing/own-cluster";
import { waitUntil } from "@/lib/testing/worker-process";
import { freePort } from "@/lib/testing/free-port";

const SECRET = "launcher-fault-test-secret-0123456789";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The launcher's children, by what they run. */
function children(pid: number): { web?: number; worker?: number } {
  const out = execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(pid)], { encoding: "utf8" }).trim();
  const found: { web?: number; worker?: number } = {};
  for (const line of out.split("\n").filter(Boolean)) {
    const [pidText, ...args] = line.trim().split(/\s+/);
    if (args.join(" ").includes("worker/index.ts")) found.worker = Number(pidText);
    else if (args.join(" ").includes("next")) found.web = Number(pidText);
  }
  return found;
}

describe("npm start: the launcher supervises the web server and the worker (production build)", () => {
  let cluster: OwnCluster;
  let launcher: ChildProcess;
  let output = "";
  let port: number;
  let token: string;
  const env = () => ({ ...process.env, DATABASE_URL: cluster.url, AUTH_SECRET: SECRET, PORT: String(port), NODE_ENV: "production" as const });

  beforeAll(async () => {
    if (!existsSync(path.join(process.cwd(), ".next", "BUILD_ID"))) throw new Error("the launcher test runs the production build: run `npm run build` first");
    cluster = await startOwnCluster("launcher");
    port = await freePort();
    const created = execFileSync(process.execPath, ["--import", "tsx", "cli/index.ts", "org:create", "--name", "Launch", "--email", "owner@launch.test"], {
      env: env(),
      encoding: "utf8",
    });
    token = (JSON.parse(created) as { api_key: string }).api_key;
  });
  afterAll(async () => {
    if (launcher?.exitCode === null) {
      const { web, worker } = children(launcher.pid!);
      for (const pid of [web, worker, launcher.pid]) if (pid && alive(pid)) process.kill(pid, "SIGKILL");
    }
    await cluster.destroy();
  });

  const get = async () => {
    const response = await fetch(`http://127.0.0.1:${port}/v1/broadcasts`, { headers: { authorization: `Bearer ${token}` } }).catch(() => null);
    return response && { status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.json().catch(() => null) };
  };

  it("restarts a killed worker without touching the web server, answers 503 while the database is away, and drains both on SIGTERM", async () => {
    launcher = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], { env: env(), stdio: ["ignore", "pipe", "pipe"] });
    launcher.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    launcher.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => launcher.on("exit", (code) => resolve(code)));
    const fail = (error: unknown) => new Error(`${(error as Error).message}\n${output}`);

    try {
      await waitUntil(async () => (await get())?.status === 200, 120_000, "the web server");
      await waitUntil(() => output.includes("[worker] running"), 60_000, "the worker");
    } catch (error) {
      throw fail(error);
    }
    const first = children(launcher.pid!);
    expect(first.web).toBeGreaterThan(0);
    expect(first.worker).toBeGreaterThan(0);

    // A worker crash: the web server goes on answering, and a new worker starts after the backoff.
    process.kill(first.worker!, "SIGKILL");
    expect((await get())?.status).toBe(200);
    const killedAt = Date.now();
    try {
      await waitUntil(() => (children(launcher.pid!).worker ?? first.worker) !== first.worker, 30_000, "a new worker");
    } catch (error) {
      throw fail(error);
    }
    const restartMs = Date.now() - killedAt;
    const second = children(launcher.pid!);
    expect(second.web).toBe(first.web);
    expect(launcher.exitCode).toBeNull();
    await waitUntil(() => output.split("[worker] running").length > 2, 60_000, "the new worker to run").catch((error: unknown) => {
      throw fail(error);
    });

    // The database away: 503 with Retry-After and the JSON error body; back to 200 once it returns.
    await cluster.stop();
    const during = await get();
    expect(during).toMatchObject({ status: 503, body: { error: expect.any(String), code: "SERVICE_UNAVAILABLE" } });
    expect(Number(during?.retryAfter)).toBeGreaterThan(0);
    await cluster.start();
    await waitUntil(async () => (await get())?.status === 200, 60_000, "the API after the database returned").catch((error: unknown) => {
      throw fail(error);
    });
    // Neither child died of it.
    expect(children(launcher.pid!)).toEqual(second);

    // SIGTERM: forwarded to both, and the launcher exits only once they have finished.
    const stoppedAt = Date.now();
    launcher.kill("SIGTERM");
    const code = await exited;
    const stopMs = Date.now() - stoppedAt;
    console.log(`[faults] launcher: a killed worker was running again after ${restartMs} ms; SIGTERM drained both children in ${stopMs} ms`);
    expect(code).toBe(0);
    expect(alive(second.web!)).toBe(false);
    expect(alive(second.worker!)).toBe(false);
    expect(output, "the worker drained and said so").toContain("[worker] stopped");
    expect(output.indexOf("[worker] stopped")).toBeLessThan(output.indexOf("[launch] stopped"));
  });
});
