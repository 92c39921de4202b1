// No Node modules here: the zod schemas that use these checks also run in the browser's forms.

const label = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/i;
const ipv4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** A DNS host name (RFC 1123 labels, at most 253 characters); a single label such as `localhost` counts. */
function isHostname(value: string): boolean {
  if (value.length === 0 || value.length > 253) return false;
  return value
    .replace(/\.$/, "")
    .split(".")
    .every((part) => label.test(part));
}

function isIpv6(value: string): boolean {
  if (!value.includes(":") || !/^[0-9a-f:.]+$/i.test(value)) return false;
  try {
    new URL(`http://[${value}]/`);
    return true;
  } catch {
    return false;
  }
}

/** What a mail client can connect to: a host name or an IPv4/IPv6 address. */
export const isHostOrIp = (value: string) => ipv4.test(value) || isIpv6(value) || isHostname(value);

/** A domain one can own and publish records for: two or more labels and a top-level label that is not numeric. */
export function isDomainName(value: string): boolean {
  const labels = value.split(".");
  return isHostname(value) && !value.endsWith(".") && labels.length >= 2 && !/^\d+$/.test(labels[labels.length - 1]);
}

/**
 * The form a domain is stored and published in: trimmed, lowercase, without a trailing dot, and an
 * international name in its punycode (`xn--`) spelling. Anything unparsable is returned for validation to refuse.
 */
export function normalizeDomainName(value: string): string {
  const name = value.trim().toLowerCase().replace(/\.$/, "");
  if (/^[\x21-\x7e]*$/.test(name) || /[\s/:?#@%\\[\]]/.test(name)) return name;
  try {
    return new URL(`http://${name}/`).hostname;
  } catch {
    return name;
  }
}
