// Pure, so the dashboard can use it too: showing a sent email to a teammate must not count as the
// recipient opening it (a sandboxed frame's image request looks exactly like a mail client's).
const OPEN_PIXEL = /<img\b[^>]*\bsrc=(["'])[^"']*\/t\/o\/[A-Za-z0-9_.-]+\1[^>]*>/gi;

/** The HTML of a sent email without its open-tracking pixel. */
export function stripOpenPixel(html: string): string {
  return html.replace(OPEN_PIXEL, "");
}
