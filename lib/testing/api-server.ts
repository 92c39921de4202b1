import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { operations } from "@/lib/api/operations";
import { execute, matchPath } from "@/lib/api/route";
import { unknownPath } from "@/lib/api/unknown-path";

/**
 * The /v1 API on a real HTTP server at 127.0.0.1: each request goes through the operation table
 * and `execute`, as the route files hand it over in Next.js (an unknown path gets the catch-all's
 * 404). For clients under test, such as the SDK, that speak HTTP rather than call functions.
 */
export async function startApiServer() {
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) for (const one of [value ?? []].flat()) headers.append(name, one);
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const init: RequestInit & { duplex?: "half" } = {
        method: req.method,
        headers,
        body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
        duplex: hasBody ? "half" : undefined,
      };
      const request = new Request(url, init);
      const operation = operations.find((op) => op.method === req.method && matchPath(op.path, url.pathname));
      const response = operation ? await execute(operation, request) : await unknownPath();
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error));
    }
  });
  // Clients keep connections alive between requests; closing the server must not wait for them.
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
