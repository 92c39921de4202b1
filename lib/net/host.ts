import { BlockList, isIP } from "node:net";

// Host and address spellings, without the environment: lib/env.ts validates ALLOWED_PRIVATE_HOSTS with these.

/** `port: "*"` admits every port of the host (the test suite's loopback sinks listen on random ones). */
export type AllowedEndpoint = { host: string; port: number | "*" };

// Everything that is not an ordinary public unicast address: "this network", private, shared
// (CGNAT), loopback, link-local (which holds the cloud metadata services), IETF and documentation
// ranges, benchmarking, multicast, reserved and broadcast. IPv4-mapped IPv6 addresses are checked
// against these IPv4 rules by BlockList itself.
const forbidden = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  forbidden.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 96], // unspecified, loopback and the deprecated IPv4-compatible form
  ["64:ff9b:1::", 48], // local-use NAT64
  ["100::", 64], // discard
  ["2001::", 32], // Teredo: the IPv4 address inside is obfuscated, so it cannot be checked
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique local, which holds fd00:ec2::254 (EC2 metadata)
  ["fe80::", 10], // link-local
  ["fec0::", 10], // deprecated site-local
  ["ff00::", 8], // multicast
] as const) {
  forbidden.addSubnet(network, prefix, "ipv6");
}

/** The eight 16-bit groups of an IPv6 address (which `isIP` has already accepted). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const dotted = text.match(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const part = (s: string | undefined) => (s ? s.split(":").map((g) => parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail);
  const fill = tail === undefined ? [] : new Array(8 - left.length - right.length).fill(0);
  return [...left, ...fill, ...right];
}

const ipv4FromGroups = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/** The IPv4 address a NAT64 (64:ff9b::/96) or 6to4 (2002::/16) address leads to, if it is one. */
function embeddedIpv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return ipv4FromGroups(g[6], g[7]);
  if (g[0] === 0x2002) return ipv4FromGroups(g[1], g[2]);
  return undefined;
}

/** Whether an IP address is an ordinary public one. Anything that is not an IP address is refused. */
export function isPublicAddress(address: string): boolean {
  const ip = address.split("%")[0];
  const family = isIP(ip);
  if (family === 0) return false;
  if (forbidden.check(ip, family === 4 ? "ipv4" : "ipv6")) return false;
  if (family === 6) {
    const inner = embeddedIpv4(ip);
    if (inner !== undefined) return isPublicAddress(inner);
  }
  return true;
}

/**
 * An IPv4 address in any spelling the C library's resolver accepts (inet_aton: one to four parts,
 * each decimal, octal with a leading 0 or hexadecimal with 0x, the last filling the remaining
 * bytes), so `127.1`, `0x7f.1` and `2130706433` are recognised as the addresses they are.
 */
function inetAton(text: string): string | null {
  const parts = text.split(".");
  if (parts.length > 4) return null;
  const numbers = parts.map((p) => {
    if (/^0x[0-9a-f]*$/i.test(p)) return parseInt(p.slice(2) || "0", 16);
    if (/^0[0-7]*$/.test(p)) return parseInt(p, 8);
    if (/^[1-9]\d*$/.test(p)) return Number(p);
    return NaN;
  });
  if (numbers.some((n) => Number.isNaN(n))) return null;
  const last = numbers.pop()!;
  if (numbers.some((n) => n > 255) || last >= 256 ** (4 - numbers.length)) return null;
  const value = numbers.reduce((sum, n, i) => sum + n * 256 ** (3 - i), 0) + last;
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join(".");
}

/** The one spelling of an IP address: dotted IPv4 (an IPv4-mapped IPv6 address included), RFC 5952 IPv6. */
export function canonicalIp(ip: string): string {
  if (isIP(ip) === 4) return ip;
  const compressed = new URL(`http://[${ip.split("%")[0]}]/`).hostname.slice(1, -1);
  const mapped = compressed.match(/^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/);
  return mapped ? ipv4FromGroups(parseInt(mapped[1], 16), parseInt(mapped[2], 16)) : compressed;
}

/** A host as a tenant or an operator wrote it, in one spelling: lowercase, no brackets or final dot, IPs canonical. */
export function normalizeHost(value: string): { host: string; ip: boolean } {
  const text = value
    .trim()
    .replace(/^\[(.*)\]$/, "$1")
    .toLowerCase()
    .replace(/\.$/, "");
  if (isIP(text.split("%")[0])) return { host: canonicalIp(text), ip: true };
  const v4 = inetAton(text);
  if (v4) return { host: v4, ip: true };
  return { host: text, ip: false };
}

/** `host:port` or `host:*`, with IPv6 in brackets (`[::1]:25`); null when it is neither. */
export function parseAllowedEndpoint(entry: string): AllowedEndpoint | null {
  const match = entry.trim().match(/^(\[[^\]\s]+\]|[^:[\]\s]+):(\d{1,5}|\*)$/);
  if (!match) return null;
  const port = match[2] === "*" ? "*" : Number(match[2]);
  if (port !== "*" && (port < 1 || port > 65535)) return null;
  const { host } = normalizeHost(match[1]);
  return host ? { host, port } : null;
}
