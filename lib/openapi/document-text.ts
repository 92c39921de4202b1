/**
 * How deep the committed `sdk/openapi.json` is indented: down to each operation, webhook and named
 * schema, one line each. Indented all the way it was 2.4 times the served (compact) document, 705 KB
 * against 290 KB; indented to here it is the served size plus 1 %, and a change still shows in a
 * diff as the operations and schemas it touches (on a merge conflict, run `npm run sdk:generate`).
 */
export const COMMITTED_DEPTH = 3;

/** JSON indented down to `depth` levels and compact below them. */
export function documentText(document: unknown, depth: number): string {
  const write = (value: unknown, level: number): string => {
    if (level >= depth || value === null || typeof value !== "object") return JSON.stringify(value);
    const entries = Array.isArray(value)
      ? value.map((item) => write(item, level + 1))
      : Object.entries(value)
          .filter(([, item]) => item !== undefined)
          .map(([key, item]) => `${JSON.stringify(key)}: ${write(item, level + 1)}`);
    const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
    if (entries.length === 0) return open + close;
    const indent = "  ".repeat(level + 1);
    return `${open}\n${entries.map((entry) => indent + entry).join(",\n")}\n${"  ".repeat(level)}${close}`;
  };
  return write(document, 0) + "\n";
}
