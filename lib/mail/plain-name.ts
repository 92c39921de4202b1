// Control characters, bidirectional overrides and zero-width characters: what makes a name look
// like something else in a mail client.
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g;

/**
 * A user-chosen name (a person's, an organization's) as it may appear in system mail: one line of
 * plain text, cut to `max` characters. Names are free text an attacker controls, so mail shows
 * them short and never lets them pass for the platform's own words.
 */
export function plainName(value: string, max = 60): string {
  const flat = value.replace(INVISIBLE, " ").replace(/\s+/g, " ").trim();
  const chars = Array.from(flat);
  return chars.length <= max
    ? flat
    : `${chars
        .slice(0, max - 1)
        .join("")
        .trimEnd()}…`;
}

export const escapeHtml = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
