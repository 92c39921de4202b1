// A bare sender in a process of its own: a nodemailer pool of the worker's relay connections that
// sends the messages it is told to, as fast as they go, and nothing else (no database). Several of
// them show what the machine itself allows more processes waiting on the same sink (scale-out).
import net from "node:net";
import nodemailer from "nodemailer";

type Go = { port: number; count: number; connections: number; offset: number };

process.on("message", async ({ port, count, connections, offset }: Go) => {
  const transport = nodemailer.createTransport({
    host: "127.0.0.1",
    port,
    pool: true,
    maxConnections: connections,
    maxMessages: 1000,
    getSocket: (_options, callback) => callback(null, { connection: net.connect({ host: "127.0.0.1", port, noDelay: true }) }),
  });
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = offset + next++;
      await transport.sendMail({ from: "news@bench.example", to: `contact${i}@example.com`, subject: "News of the week (bare)", text: "Hello" });
    }
  };
  await Promise.all(Array.from({ length: connections * 4 }, lane));
  transport.close();
  process.send!({ type: "done" });
});
process.send!({ type: "ready" });
process.on("disconnect", () => process.exit(0));
