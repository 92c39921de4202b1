import http from "node:http";
import type { AddressInfo } from "node:net";

export type ReceivedWebhook = { headers: http.IncomingHttpHeaders; body: string; at: Date };

/** One scripted answer: a status (with "ok" or "receiver says no"), a status with its own body, or no answer at all. */
export type ScriptedAnswer = number | { status: number; body: string | Buffer } | "hang";

/**
 * A real HTTP server on 127.0.0.1 that records every request and answers the statuses it is
 * given in turn (then 200), with a Location header on 3xx answers. A `"hang"` answer reads the
 * request and never answers it (a slow receiver); `close` cuts such requests off.
 */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  const script: ScriptedAnswer[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: new Date() });
      const next = script.shift() ?? 200;
      if (next === "hang") return;
      const status = typeof next === "number" ? next : next.status;
      if (status >= 300 && status < 400) res.setHeader("location", "http://127.0.0.1:1/elsewhere");
      res.writeHead(status, { "content-type": "text/plain" });
      res.end(typeof next === "number" ? (status >= 400 ? "receiver says no" : "ok") : next.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    /** The next answers, in order; every request after them gets 200. */
    answer: (...answers: ScriptedAnswer[]) => script.push(...answers),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
