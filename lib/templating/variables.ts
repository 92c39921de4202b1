/**
 * A placeholder: `{{first_name}}`, `{{ metadata.plan }}`, or with a fallback `{{first_name|there}}`.
 * Names are word characters with optional dotted parts, so `{{ }}` in ordinary text is left alone.
 */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w-]*(?:\.[\w-]+)*)\s*(?:\|\s*([^{}]*?))?\s*\}\}/g;

/** The placeholder names found in the given texts: unique, in order of first appearance. */
export function extractVariables(...sources: string[]): string[] {
  const names = new Set<string>();
  for (const source of sources) {
    for (const match of source.matchAll(PLACEHOLDER)) names.add(match[1]);
  }
  return [...names];
}

/** Replaces every placeholder with what `replacement` returns for its name and fallback. */
export function replacePlaceholders(source: string, replacement: (name: string, fallback: string | undefined) => string): string {
  return source.replace(PLACEHOLDER, (_match, name: string, fallback: string | undefined) => replacement(name, fallback));
}
