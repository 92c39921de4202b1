import http from "node:http";

export type Reply = { status: number; body: Buffer; ms: number };

// What the framework alone answers from this build: an unknown /v1 path answers the API's constant
// JSON 404 through the same server, proxy and headers, with no authentication and no database, so
// the product needs no route of the benchmark's own.
export const BARE = "/v1/bench-baseline";
export const BARE_STATUS = 404;

type Options = {
  token?: string;
  body?: Buffer | string;
  /** Reads the answer chunk by chunk instead of keeping it (for answers of hundreds of megabytes). */
  onChunk?: (chunk: Buffer) => void;
};

/** HTTP/1.1 over keep-alive connections, at most `connections` of them, to one server. */
export class HttpClient {
  private readonly agent: http.Agent;

  constructor(
    private readonly host: string,
    private readonly port: number,
    connections = 16,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  }

  request(method: string, path: string, options: Options = {}): Promise<Reply> {
    const headers: http.OutgoingHttpHeaders = { accept: "application/json" };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) {
      headers["content-type"] = "application/json";
      headers["content-length"] = Buffer.byteLength(options.body);
    }
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const req = http.request({ host: this.host, port: this.port, method, path, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => (options.onChunk ? options.onChunk(chunk) : chunks.push(chunk)));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), ms: performance.now() - started }));
        res.on("error", reject);
      });
      req.on("error", (error: NodeJS.ErrnoException) => {
        // A kept-alive socket the server closed for idleness just before this request reused it
        // (Node's documented race, `reusedSocket`): the request never reached the server; send it again.
        if (req.reusedSocket && (error.code === "ECONNRESET" || error.code === "EPIPE")) this.request(method, path, options).then(resolve, reject);
        else reject(error);
      });
      req.end(options.body);
    });
  }

  /** A JSON request that must answer `expect`; answers the parsed body and the time taken. */
  async json<T>(method: string, path: string, token: string | undefined, payload?: unknown, expect = 200): Promise<{ data: T; ms: number }> {
    const body = payload === undefined ? undefined : Buffer.isBuffer(payload) ? payload : JSON.stringify(payload);
    const reply = await this.request(method, path, { token, body });
    if (reply.status !== expect) {
      throw new HttpError(`${method} ${path} answered ${reply.status}: ${reply.body.toString("utf8", 0, 500)}`, reply.status);
    }
    return { data: JSON.parse(reply.body.toString("utf8")) as T, ms: reply.ms };
  }

  close() {
    this.agent.destroy();
  }
}

/**
 * The benchmark's own load balancer: each request goes to the next server in turn, over that
 * server's own keep-alive connections (`connections` in all, shared out evenly).
 */
export class RoundRobin {
  private readonly clients: HttpClient[];
  private next = 0;

  constructor(host: string, ports: number[], connections: number) {
    this.clients = ports.map((port) => new HttpClient(host, port, Math.ceil(connections / ports.length)));
  }

  request(method: string, path: string, options: Options = {}): Promise<Reply> {
    const client = this.clients[this.next];
    this.next = (this.next + 1) % this.clients.length;
    return client.request(method, path, options);
  }

  close() {
    for (const client of this.clients) client.close();
  }
}

export class HttpError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * Closed-loop load: `connections` loops, each sending the next request as soon as the previous
 * answer is read, for `seconds`. Answers the requests per second that got `expectStatus`.
 */
export async function load(
  client: Pick<HttpClient, "request">,
  path: string,
  token: string | undefined,
  connections: number,
  seconds: number,
  expectStatus = 200,
) {
  const deadline = performance.now() + seconds * 1000;
  let ok = 0;
  let failed = 0;
  let lastFailure = "";
  const loop = async () => {
    while (performance.now() < deadline) {
      const reply = await client.request("GET", path, { token });
      if (reply.status === expectStatus) ok++;
      else {
        failed++;
        lastFailure = `${reply.status} ${reply.body.toString("utf8", 0, 200)}`;
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, loop));
  const elapsed = (performance.now() - started) / 1000;
  return { rps: ok / elapsed, ok, failed, lastFailure };
}
