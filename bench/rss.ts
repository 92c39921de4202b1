import { Worker } from "node:worker_threads";

// Sampled on a thread of its own, so a busy event loop in the benchmark cannot hide a short peak.
// The RSS of a process tree: the server and any process it started.
const SAMPLER = `
const { workerData } = require("node:worker_threads");
const fs = require("node:fs");
const state = new Int32Array(workerData.buffer); // [current kB, peak kB, stop]
const sleep = new Int32Array(new SharedArrayBuffer(4));
function children(pid) {
  let out = [];
  let tasks = [];
  try { tasks = fs.readdirSync("/proc/" + pid + "/task"); } catch { return out; }
  for (const task of tasks) {
    try {
      const text = fs.readFileSync("/proc/" + pid + "/task/" + task + "/children", "utf8").trim();
      if (text) out = out.concat(text.split(" ").map(Number));
    } catch {}
  }
  return out;
}
function rss(pid) {
  try {
    const match = /VmRSS:\\s+(\\d+) kB/.exec(fs.readFileSync("/proc/" + pid + "/status", "utf8"));
    return match ? Number(match[1]) : 0;
  } catch { return 0; }
}
while (Atomics.load(state, 2) === 0) {
  let total = 0;
  const queue = [workerData.pid];
  while (queue.length) { const pid = queue.pop(); total += rss(pid); queue.push(...children(pid)); }
  Atomics.store(state, 0, total);
  if (total > Atomics.load(state, 1)) Atomics.store(state, 1, total);
  Atomics.wait(sleep, 0, 0, ${10});
}
`;

export class RssSampler {
  private readonly state = new Int32Array(new SharedArrayBuffer(12));
  private readonly worker: Worker;

  constructor(pid: number) {
    this.worker = new Worker(SAMPLER, { eval: true, workerData: { pid, buffer: this.state.buffer } });
    this.worker.unref();
  }

  /** The tree's RSS now, in MB. */
  currentMb(): number {
    return Atomics.load(this.state, 0) / 1024;
  }

  /** The highest RSS since the last reset, in MB. */
  peakMb(): number {
    return Atomics.load(this.state, 1) / 1024;
  }

  resetPeak() {
    Atomics.store(this.state, 1, Atomics.load(this.state, 0));
  }

  async stop() {
    Atomics.store(this.state, 2, 1);
    await this.worker.terminate();
  }
}
