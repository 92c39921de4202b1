import { isIP } from "node:net";

const label = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/i;

/** A DNS host name (RFC 1123 labels, at most 253 characters); a single label such as `localhost` counts. */
export function isHostname(value: string): boolean {
  if (value.length === 0 || value.length > 253) return false;
  return value.replace(/\.$/, "").split(".").every((part) => label.test(part));
}

/** What a mail client can connect to: a host name or an IPv4/IPv6 address. */
export const isHostOrIp = (value: string) => isIP(value) !== 0 || isHostname(value);

/** A domain one can own and publish records for: two or more labels and a top-level label that is not numeric. */
export function isDomainName(value: string): boolean {
  const labels = value.split(".");
  return isHostname(value) && !value.endsWith(".") && labels.length >= 2 && !/^\d+$/.test(labels[labels.length - 1]);
}
