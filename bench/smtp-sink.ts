// A local SMTP server that accepts and discards every message, in a process of its own so that
// neither the product's worker nor the baseline's nodemailer loop shares its event loop. It counts
// messages and tells the parent (over IPC) when the first and the last of a run arrived; it may
// answer each message a fixed time after it arrived, as a relay further away does.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

type Command = { type: "reset" } | { type: "stats" };
export type SinkStats = { type: "stats"; count: number; firstAt: number | null; lastAt: number | null };

const answerMs = Number(process.env.BENCH_SINK_ANSWER_MS ?? 0);
let count = 0;
let firstAt: number | null = null;
let lastAt: number | null = null;

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS", "AUTH"],
  logger: false,
  maxClients: 1000,
  // A reverse DNS lookup per connection measures the resolver, not the sender.
  disableReverseLookup: true,
  onData(stream, _session, callback) {
    stream.on("end", () => {
      const answer = () => {
        const now = Date.now();
        count++;
        firstAt ??= now;
        lastAt = now;
        callback();
      };
      // A relay that takes its time (BENCH_SINK_ANSWER_MS): a message counts when it is answered.
      if (answerMs > 0) setTimeout(answer, answerMs);
      else answer();
    });
    stream.resume();
  },
});

server.listen(0, "127.0.0.1", () => {
  process.send!({ type: "ready", port: (server.server.address() as AddressInfo).port });
});

process.on("message", (command: Command) => {
  if (command.type === "reset") {
    count = 0;
    firstAt = null;
    lastAt = null;
  }
  process.send!({ type: "stats", count, firstAt, lastAt } satisfies SinkStats);
});

process.on("disconnect", () => server.close(() => process.exit(0)));
