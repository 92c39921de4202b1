import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { SinkStats } from "./smtp-sink";

/** The parent's handle on the SMTP sink process. */
export class Sink {
  private pending: ((stats: SinkStats) => void)[] = [];

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {
    child.on("message", (message: SinkStats) => {
      if (message.type === "stats") this.pending.shift()?.(message);
    });
  }

  /**
   * `answerMs`: each message is answered (and counted) this long after it arrived. `replyDelayMs`:
   * every reply of the server reaches the client this long after it was written (a sending
   * conversation of four commands then takes four times that).
   */
  static start({ answerMs = 0, replyDelayMs = 0 }: { answerMs?: number; replyDelayMs?: number } = {}): Promise<Sink> {
    const child = fork(path.join(import.meta.dirname, "smtp-sink.ts"), [], {
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "ignore", "inherit", "ipc"],
      env: { ...process.env, BENCH_SINK_ANSWER_MS: String(answerMs), BENCH_SINK_REPLY_DELAY_MS: String(replyDelayMs) },
    });
    return new Promise((resolve, reject) => {
      child.once("error", reject);
      child.once("exit", (code) => reject(new Error(`the SMTP sink exited with ${code}`)));
      child.once("message", (message: { type: string; port: number }) => resolve(new Sink(child, message.port)));
    });
  }

  get url() {
    return `smtp://127.0.0.1:${this.port}`;
  }

  private ask(type: "reset" | "stats"): Promise<SinkStats> {
    return new Promise((resolve) => {
      this.pending.push(resolve);
      this.child.send({ type });
    });
  }

  reset = () => this.ask("reset");
  stats = () => this.ask("stats");

  /** Resolves when `count` messages have arrived; rejects when none arrive for `idleMs`. */
  async waitFor(count: number, idleMs: number): Promise<SinkStats> {
    let last = await this.stats();
    let progressAt = Date.now();
    while (last.count < count) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const now = await this.stats();
      if (now.count > last.count) progressAt = Date.now();
      else if (Date.now() - progressAt > idleMs) {
        throw new Error(`stalled: ${now.count} of ${count} emails arrived, none in the last ${Math.round(idleMs / 1000)} s`);
      }
      last = now;
    }
    return last;
  }

  stop() {
    this.child.removeAllListeners("exit");
    this.child.disconnect();
  }
}
