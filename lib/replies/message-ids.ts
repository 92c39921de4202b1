/** The `<id>` tokens of a Message-ID, In-Reply-To or References header, in order, brackets kept. */
export function messageIds(value: string | string[] | undefined): string[] {
  const parts = value === undefined ? [] : Array.isArray(value) ? value : [value];
  const ids: string[] = [];
  for (const part of parts) {
    const bracketed = part.match(/<[^<>\s]+>/g);
    if (bracketed) ids.push(...bracketed);
    else if (part.trim() && !/\s/.test(part.trim())) ids.push(`<${part.trim()}>`);
  }
  return ids;
}

/**
 * Which of our Message-IDs a reply may answer, best first: those of In-Reply-To, then the
 * References from the newest back (a client that drops In-Reply-To still keeps References).
 */
export function replyCandidates(inReplyTo: string | undefined, references: string | string[] | undefined): string[] {
  return [...new Set([...messageIds(inReplyTo), ...messageIds(references).reverse()])];
}
