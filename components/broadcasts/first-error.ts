type ErrorNode = { message?: unknown } | undefined | null;

/**
 * The message of a field error, or of the first failing element of an array field (an invalid
 * tag, an unknown segment id), so list inputs show what is wrong with them.
 */
export function firstError(error: unknown): string | undefined {
  if (!error || typeof error !== "object") return undefined;
  const node = error as ErrorNode & Record<string, unknown>;
  if (typeof node.message === "string" && node.message) return node.message;
  for (const [key, value] of Object.entries(node)) {
    // `ref` is the DOM element react-hook-form attaches; never walk into it.
    if (key === "ref") continue;
    const message = firstError(value);
    if (message) return message;
  }
  return undefined;
}
