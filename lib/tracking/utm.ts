import type { Utm } from "@/lib/schemas/tracking";

const KEYS = ["source", "medium", "campaign"] as const;

/** The names of a query string's parameters, decoded and lowercase; malformed escapes are kept as written. */
function parameterNames(query: string): Set<string> {
  const names = new Set<string>();
  for (const pair of query.split("&")) {
    const name = pair.split("=")[0].replace(/\+/g, " ");
    try {
      names.add(decodeURIComponent(name).toLowerCase());
    } catch {
      names.add(name.toLowerCase());
    }
  }
  return names;
}

/**
 * The URL with `utm_source`, `utm_medium` and `utm_campaign` appended to its query, each unless the
 * link already has it (the author's own choice wins). The rest is kept byte for byte, the fragment
 * after the query: re-serializing through `URL` would re-encode what the author wrote.
 */
export function withUtm(url: string, utm: Utm | null | undefined): string {
  if (!utm) return url;
  const hashAt = url.indexOf("#");
  const beforeHash = hashAt === -1 ? url : url.slice(0, hashAt);
  const hash = hashAt === -1 ? "" : url.slice(hashAt);
  const queryAt = beforeHash.indexOf("?");
  const query = queryAt === -1 ? "" : beforeHash.slice(queryAt + 1);
  const present = parameterNames(query);
  const added = KEYS.filter((key) => utm[key] && !present.has(`utm_${key}`)).map((key) => `utm_${key}=${encodeURIComponent(utm[key]!)}`);
  if (added.length === 0) return url;
  const joiner = queryAt === -1 ? "?" : query === "" || query.endsWith("&") ? "" : "&";
  return `${beforeHash}${joiner}${added.join("&")}${hash}`;
}

// A URL in plain text ends at white space or a character that cannot be in one; trailing
// punctuation belongs to the sentence ("see https://example.com/a." or "[https://…]").
const TEXT_URL = /https?:\/\/[^\s<>"'`]+/gi;
// A closing parenthesis stays when the URL opened one (https://en.wikipedia.org/wiki/Mail_(protocol)).
const TRAILING = ".,;:!?)]}>";

function splitTrailing(match: string): [string, string] {
  let end = match.length;
  while (end > 0 && TRAILING.includes(match[end - 1])) {
    const url = match.slice(0, end);
    if (match[end - 1] === ")" && url.split("(").length > url.split(")").length - 1) break;
    end -= 1;
  }
  return [match.slice(0, end), match.slice(end)];
}

/** The plain-text part with UTM parameters added to each web link `eligible` accepts. */
export function textWithUtm(text: string, utm: Utm | null | undefined, eligible: (url: string) => boolean): string {
  if (!utm) return text;
  return text.replace(TEXT_URL, (match) => {
    const [url, tail] = splitTrailing(match);
    return eligible(url) ? `${withUtm(url, utm)}${tail}` : match;
  });
}
