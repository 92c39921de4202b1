import { BlockList, isIP } from "node:net";

/**
 * Which addresses a webhook may reach. Production passes nothing; a test that runs its receiver on
 * 127.0.0.1 passes `allowLoopbackForTests`. There is deliberately no environment switch for it.
 */
export type AddressPolicy = { allowLoopbackForTests?: boolean };

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

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

/** Whether a webhook may connect to this IP address. Anything that is not an IP address is refused. */
export function isAllowedAddress(address: string, policy: AddressPolicy = {}): boolean {
  const ip = address.split("%")[0];
  const family = isIP(ip);
  if (family === 0) return false;
  const type = family === 4 ? "ipv4" : "ipv6";
  if (policy.allowLoopbackForTests && loopback.check(ip, type)) return true;
  if (forbidden.check(ip, type)) return false;
  if (family === 6) {
    const inner = embeddedIpv4(ip);
    if (inner !== undefined) return isAllowedAddress(inner, policy);
  }
  return true;
}
