import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { supervise } from "./supervise";

const node = (code: string) => ["-e", code];
const alive = (pid: number | null) => {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("supervise: the launcher's children", () => {
  it("restarts a child that keeps dying, waiting longer each time, and leaves the others running", async () => {
    const lines: string[] = [];
    const supervisor = supervise(
      [
        { name: "crashing", args: node("process.exit(3)") },
        { name: "steady", args: node("setInterval(() => {}, 1000)") },
      ],
      { backoffMs: 50, maxBackoffMs: 400, log: (line) => lines.push(line) },
    );
    const steady = supervisor.pids().steady;
    const crashes = () => lines.filter((l) => l.startsWith("[launch] crashing exited (code 3)"));
    for (const deadline = Date.now() + 30_000; crashes().length < 5 && Date.now() < deadline;) await sleep(50);
    expect(supervisor.pids().steady).toBe(steady);
    expect(alive(steady)).toBe(true);
    const waits = crashes().map((l) => Number(/in (\d+) ms/.exec(l)?.[1]));
    expect(waits.slice(0, 5)).toEqual([50, 100, 200, 400, 400]);
    await supervisor.stop();
    expect(alive(steady)).toBe(false);
  });

  it("on stop forwards the signal and waits for each child to finish its work", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "supervise-"));
    const marker = path.join(dir, "drained");
    const drains = `process.on("SIGTERM", () => setTimeout(() => { require("fs").writeFileSync(${JSON.stringify(marker)}, "yes"); process.exit(0); }, 700)); setInterval(() => {}, 1000);`;
    const supervisor = supervise([{ name: "worker", args: node(drains) }], { log: () => undefined });
    await sleep(500);
    const pid = supervisor.pids().worker;
    const started = Date.now();
    await supervisor.stop("SIGTERM");
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
    expect(readFileSync(marker, "utf8")).toBe("yes");
    expect(alive(pid)).toBe(false);
  });

  it("kills a child that does not finish within the stop timeout, and does not restart it", async () => {
    const lines: string[] = [];
    const supervisor = supervise([{ name: "stuck", args: node('process.on("SIGTERM", () => {}); setInterval(() => {}, 1000);') }], {
      stopTimeoutMs: 400,
      log: (line) => lines.push(line),
    });
    await sleep(500);
    const pid = supervisor.pids().stuck;
    await supervisor.stop("SIGTERM");
    expect(alive(pid)).toBe(false);
    expect(lines.some((l) => l.includes("stuck still running after 400 ms; killing it"))).toBe(true);
    await sleep(300);
    expect(supervisor.pids().stuck).toBeNull();
    expect(existsSync("/proc/" + pid)).toBe(false);
  });
});
