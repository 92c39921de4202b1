// A local SMTP server that accepts and discards every message, in a process of its own so that
// neither the product's worker nor the baseline's nodemailer loop shares its event loop. It counts
// messages and tells the parent (over IPC) when the first and the last of a run arrived; it may
// answer each message a fixed time after it arrived, as a relay further away does, or hold every
// reply (greeting, EHLO, MAIL, RCPT, DATA and the message's end) a fixed time, as a server a
// network's round trip away does.
import net, { type AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

type Command = { type: "reset" } | { type: "stats" };
export type SinkStats = { type: "stats"; count: number; firstAt: number | null; lastAt: number | null };

const answerMs = Number(process.env.BENCH_SINK_ANSWER_MS ?? 0);
const replyDelayMs = Number(process.env.BENCH_SINK_REPLY_DELAY_MS ?? 0);
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

/**
 * A proxy in front of the server that passes what clients send at once and holds every chunk the
 * server answers for `delayMs`, in order: each SMTP command the client waits on costs that long.
 * (smtp-server has no hook for the greeting, EHLO or DATA's 354.)
 */
function delayingProxy(serverPort: number, delayMs: number) {
  return net.createServer((client) => {
    client.setNoDelay(true);
    const upstream = net.connect({ host: "127.0.0.1", port: serverPort, noDelay: true });
    client.pipe(upstream);
    // Timers of one delay fire in the order they were set: the replies keep their order.
    upstream.on("data", (chunk: Buffer) => setTimeout(() => client.writable && client.write(chunk), delayMs));
    upstream.on("end", () => setTimeout(() => client.end(), delayMs));
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
    client.on("close", () => upstream.destroy());
  });
}

// A client that drops its connection (a worker stopped between rounds, a pool closing its sockets)
// is an error event of the server: unhandled, it ended the sink, and the run waited for messages
// that could no longer arrive until its limit.
server.on("error", () => undefined);

server.listen(0, "127.0.0.1", () => {
  const serverPort = (server.server.address() as AddressInfo).port;
  if (replyDelayMs <= 0) return process.send!({ type: "ready", port: serverPort });
  const proxy = delayingProxy(serverPort, replyDelayMs);
  proxy.listen(0, "127.0.0.1", () => process.send!({ type: "ready", port: (proxy.address() as AddressInfo).port }));
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
