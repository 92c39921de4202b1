import net, { type Socket } from "node:net";
import type { TLSSocket } from "node:tls";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";

/** Most keys a set of buckets remembers: past it the least recently used is forgotten (its limit starts afresh). */
const MAX_KEYS = 50_000;

/**
 * Token buckets by key (a client's address, a return-path token), in the listener's memory: a
 * burst of `burst`, refilled at `perSecond`. Bounded: at most MAX_KEYS keys, least recently used
 * first out. `perSecond` 0 turns the limit off. The clock is the caller's, so tests control time.
 */
export class RateBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one token for `key` when it has one; false when the key is over its rate. */
  take(key: string): boolean {
    if (this.perSecond <= 0) return true;
    const now = this.now();
    const bucket = this.buckets.get(key);
    const tokens = bucket ? Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond) : this.burst;
    const granted = tokens >= 1;
    this.buckets.delete(key);
    this.buckets.set(key, { tokens: granted ? tokens - 1 : tokens, at: now });
    if (this.buckets.size > MAX_KEYS) this.buckets.delete(this.buckets.keys().next().value!);
    return granted;
  }

  get size(): number {
    return this.buckets.size;
  }
}

/**
 * The client a connection counts against: its IPv4 address, or the /64 of an IPv6 one (a single
 * host is usually given a whole /64, and could otherwise take a new address for each connection).
 */
export function clientKey(address: string | undefined): string {
  if (!address) return "unknown";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (net.isIPv4(address) || !net.isIPv6(address)) return address;
  const [head, tail = ""] = address.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = address.includes("::") ? [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/** Open connections per client; `open` refuses past `max` (0: no cap). */
export class ConnectionCounts {
  private readonly open = new Map<string, number>();

  constructor(private readonly max: number) {}

  tryOpen(key: string): boolean {
    const count = this.open.get(key) ?? 0;
    if (this.max > 0 && count >= this.max) return false;
    this.open.set(key, count + 1);
    return true;
  }

  close(key: string) {
    const count = (this.open.get(key) ?? 1) - 1;
    if (count > 0) this.open.set(key, count);
    else this.open.delete(key);
  }
}

/**
 * smtp-server with a cap on each client's open connections, checked when a socket arrives, before
 * any session exists for it: one client holding every slot had all others answered 421. Shared by
 * the inbound listener and SMTP submission.
 */
export class CappedSMTPServer extends SMTPServer {
  constructor(
    options: SMTPServerOptions,
    private readonly openPerClient: ConnectionCounts,
  ) {
    super(options);
  }

  override connect(socket: Socket | TLSSocket, socketOptions?: Parameters<SMTPServer["connect"]>[1]) {
    const key = clientKey(socket.remoteAddress);
    if (!this.openPerClient.tryOpen(key)) {
      socket.on("error", () => undefined);
      socket.end("421 4.7.0 Too many connections from your address, try again later\r\n");
      setTimeout(() => socket.destroy(), 1000).unref();
      return;
    }
    socket.once("close", () => this.openPerClient.close(key));
    super.connect(socket, socketOptions);
  }
}
