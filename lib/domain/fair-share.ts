/**
 * Splits `budget` over `keys` in turn, each at most `cap(key)`; what one cannot use goes to the
 * others. The fair share of every claim that serves several organizations (or inboxes, or
 * automations) at once: the sender's and the automation engine's.
 */
export function deal(budget: number, keys: string[], cap: (key: string) => number): Map<string, number> {
  const shares = new Map(keys.map((key) => [key, 0]));
  let left = budget;
  let open = keys.filter((key) => cap(key) > 0);
  while (left > 0 && open.length > 0) {
    const each = Math.max(1, Math.floor(left / open.length));
    for (const key of open) {
      if (left <= 0) break;
      const give = Math.min(each, cap(key) - shares.get(key)!, left);
      shares.set(key, shares.get(key)! + give);
      left -= give;
    }
    open = open.filter((key) => shares.get(key)! < cap(key));
  }
  return shares;
}
