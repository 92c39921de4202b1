import { db, type Prisma } from "@/lib/db";
import { trackableLinks } from "./add-tracking";
import { recordEvent } from "@/lib/events/record";
import { machineReason, SCANNER_MIN_LINKS, SCANNER_WINDOW_MS, type MachineReason } from "./machine";
import { verifyClickToken } from "./token";
import { lockTrackedEmail, MAX_ENGAGEMENT_ENTRIES, visitorFields, type TrackedEmail, type Visitor } from "./tracked-email";

const escapeAttribute = (url: string) => url.replace(/&/g, "&amp;").replace(/"/g, "&quot;");

/**
 * Whether the link is really in the email as it was sent. The signature already proves this
 * service made the token for this email; the stored HTML is checked too, so not even a leaked
 * key can turn a tracking link into an open redirect.
 */
function linkInEmail(html: string | null, token: string, url: string): boolean {
  if (!html) return false;
  if (html.includes(token) || html.includes(url) || html.includes(escapeAttribute(url))) return true;
  // The untracked HTML may spell the URL with other entities; read its links as a browser would.
  return trackableLinks(html).includes(url);
}

const CLICK_TOKEN = /\/t\/c\/([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)/g;

/** The distinct links of the email as sent: its click redirects' destinations, or its plain links. */
function linksOf(email: TrackedEmail): Set<string> {
  const html = email.html_content ?? "";
  const links = new Set(trackableLinks(html));
  for (const match of html.matchAll(CLICK_TOKEN)) {
    const verified = verifyClickToken(match[1]);
    if (verified?.emailId === email.id) links.add(verified.url);
  }
  return links;
}

/**
 * The scanner rule (./machine): a click within seconds of delivery that completes a click on
 * every link of the email. When it fires, the earlier clicks of that window are the scanner's
 * too: they are flagged, and `clicked_at` and the broadcast's count follow the people's clicks left.
 */
async function sweepLinkScanner(tx: Prisma.TransactionClient, email: TrackedEmail, url: string, at: Date): Promise<MachineReason | null> {
  if (!email.sent_at || at.getTime() - email.sent_at.getTime() > SCANNER_WINDOW_MS) return null;
  const links = linksOf(email);
  if (links.size < SCANNER_MIN_LINKS) return null;
  const cutoff = new Date(email.sent_at.getTime() + SCANNER_WINDOW_MS);
  const earlier = await tx.$queryRaw<{ url: string }[]>`
    SELECT DISTINCT properties->>'link' AS url FROM events
    WHERE email_id = ${email.id}::uuid AND organization_id = ${email.organization_id}::uuid AND name = 'email.clicked' AND occurred_at <= ${cutoff}`;
  const clicked = new Set([url, ...earlier.map((row) => row.url)]);
  if (![...links].every((link) => clicked.has(link))) return null;

  const reason: MachineReason = "link_scanner";
  await tx.$executeRaw`
    UPDATE events SET machine = true, properties = properties || jsonb_build_object('machine', true, 'first_click', false)
    WHERE email_id = ${email.id}::uuid AND organization_id = ${email.organization_id}::uuid
      AND name = 'email.clicked' AND NOT machine AND occurred_at <= ${cutoff}`;
  const [after] = await tx.$queryRaw<{ clicked_at: Date | null }[]>`
    UPDATE emails SET
      clicked_links = (
        SELECT coalesce(jsonb_agg(CASE WHEN (x->>'at')::timestamptz <= ${cutoff} AND NOT x ? 'machine'
                                       THEN x || jsonb_build_object('machine', ${reason}::text) ELSE x END ORDER BY i), '[]'::jsonb)
        FROM jsonb_array_elements(clicked_links) WITH ORDINALITY AS t(x, i)),
      clicked_at = (
        SELECT min(occurred_at) FROM events
        WHERE email_id = ${email.id}::uuid AND organization_id = ${email.organization_id}::uuid AND name = 'email.clicked' AND NOT machine),
      updated_at = now()
    WHERE id = ${email.id}::uuid AND organization_id = ${email.organization_id}::uuid
    RETURNING clicked_at`;
  if (email.clicked_at !== null && after.clicked_at === null && email.broadcast_id) {
    await tx.$executeRaw`
      UPDATE broadcasts SET clicked_count = greatest(clicked_count - 1, 0), updated_at = now()
      WHERE id = ${email.broadcast_id}::uuid AND organization_id = ${email.organization_id}::uuid`;
  }
  email.clicked_at = after.clicked_at;
  return reason;
}

/**
 * Resolves a click on a rewritten link: the original URL when the token is ours and the link is
 * one of the email's own, otherwise null. When the organization tracks, each click goes to
 * `clicked_links` (with the visitor) and is recorded as an `email.clicked` event (lib/events; webhooks
 * follow); a person's first click sets
 * `clicked_at` and counts on the broadcast, a machine's (./machine) is flagged and does neither.
 */
export async function recordClick(token: string, visitor: Visitor, at = new Date()): Promise<string | null> {
  const verified = verifyClickToken(token);
  if (!verified) return null;
  return db.$transaction(async (tx) => {
    const email = await lockTrackedEmail(tx, verified.emailId);
    if (!email || !linkInEmail(email.html_content, token, verified.url)) return null;
    if (!email.tracking_enabled) return verified.url;
    const machine = machineReason(visitor) ?? (await sweepLinkScanner(tx, email, verified.url, at));
    const first = machine === null && email.clicked_at === null;
    const kept = email.clicks_count < MAX_ENGAGEMENT_ENTRIES;
    const entry = { url: verified.url, at: at.toISOString(), ...visitorFields(visitor), ...(machine ? { machine } : {}) };
    await tx.$executeRaw`
      UPDATE emails
      SET clicked_at = CASE WHEN ${first} THEN ${at} ELSE clicked_at END,
          clicked_links = CASE WHEN ${kept} THEN clicked_links || ${JSON.stringify([entry])}::jsonb ELSE clicked_links END,
          updated_at = now()
      WHERE id = ${email.id}::uuid`;
    if (first && email.broadcast_id) {
      await tx.$executeRaw`UPDATE broadcasts SET clicked_count = clicked_count + 1, updated_at = now() WHERE id = ${email.broadcast_id}::uuid`;
    }
    if (kept) {
      await recordEvent(tx, {
        organizationId: email.organization_id,
        name: "email.clicked",
        source: "tracking",
        contactId: email.contact_id,
        emailId: email.id,
        broadcastId: email.broadcast_id,
        automationId: email.automation_id,
        machine: machine !== null,
        occurredAt: at,
        properties: { link: verified.url, clicked_at: at.toISOString(), first_click: first, machine: machine !== null },
      });
    }
    return verified.url;
  });
}
