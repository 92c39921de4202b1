import { db } from "@/lib/db";
import { trackableLinks } from "./add-tracking";
import { emailEventData } from "@/lib/webhooks/email-event-data";
import { emitEvent } from "@/lib/webhooks/emit-event";
import { verifyClickToken } from "./token";
import { lockTrackedEmail, MAX_ENGAGEMENT_ENTRIES, visitorFields, type Visitor } from "./tracked-email";

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

/**
 * Resolves a click on a rewritten link: the original URL when the token is ours and the link is
 * one of the email's own, otherwise null. When the organization tracks, the first click sets
 * `clicked_at` and counts on the broadcast; each click goes to `clicked_links`, the email's events
 * and the `email.clicked` webhooks.
 */
export async function recordClick(token: string, visitor: Visitor, at = new Date()): Promise<string | null> {
  const verified = verifyClickToken(token);
  if (!verified) return null;
  return db.$transaction(async (tx) => {
    const email = await lockTrackedEmail(tx, verified.emailId);
    if (!email || !linkInEmail(email.html_content, token, verified.url)) return null;
    if (!email.tracking_enabled) return verified.url;
    const first = email.clicked_at === null;
    const kept = email.clicks_count < MAX_ENGAGEMENT_ENTRIES;
    const entry = { url: verified.url, at: at.toISOString() };
    await tx.$executeRaw`
      UPDATE emails
      SET clicked_at = coalesce(clicked_at, ${at}),
          clicked_links = CASE WHEN ${kept} THEN clicked_links || ${JSON.stringify([entry])}::jsonb ELSE clicked_links END,
          updated_at = now()
      WHERE id = ${email.id}::uuid`;
    if (first && email.broadcast_id) {
      await tx.$executeRaw`UPDATE broadcasts SET clicked_count = clicked_count + 1, updated_at = now() WHERE id = ${email.broadcast_id}::uuid`;
    }
    if (kept) {
      await tx.emailEvent.create({
        data: { organization_id: email.organization_id, email_id: email.id, type: "clicked", data: { ...entry, ...visitorFields(visitor) }, created_at: at },
      });
      await emitEvent(tx, {
        organizationId: email.organization_id,
        type: "email.clicked",
        data: emailEventData(email, { link: verified.url, clicked_at: at.toISOString(), first_click: first }),
      });
    }
    return verified.url;
  });
}
