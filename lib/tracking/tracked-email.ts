import type { Prisma } from "@/lib/db";

/** Who opened or clicked, as the request shows it. */
export type Visitor = { userAgent: string | null; ip: string | null };

/** Every open and click is counted, but an email keeps at most this many entries (bots can fire thousands). */
export const MAX_ENGAGEMENT_ENTRIES = 100;

export type TrackedEmail = {
  id: string;
  organization_id: string;
  message_id: string;
  broadcast_id: string | null;
  automation_id: string | null;
  contact_id: string | null;
  thread_id: string | null;
  from_email: string;
  to_email: string;
  subject: string;
  tags: string[];
  created_at: Date;
  /** The HTML as sent; once retention cleared it, the links it kept (`body_links`), which the click check reads. */
  html_content: string | null;
  sent_at: Date | null;
  opened_at: Date | null;
  clicked_at: Date | null;
  opens_count: number;
  clicks_count: number;
  tracking_enabled: boolean;
};

/** Reads an outbound email and locks it, so the first open or click is counted exactly once. */
export async function lockTrackedEmail(tx: Prisma.TransactionClient, emailId: string): Promise<TrackedEmail | undefined> {
  const [row] = await tx.$queryRaw<TrackedEmail[]>`
    SELECT e.id, e.organization_id, e.message_id, e.broadcast_id, e.automation_id, e.contact_id, e.thread_id, e.from_email,
           e.to_email, e.subject, e.tags, e.created_at, coalesce(e.html_content, e.body_links) AS html_content, e.sent_at, e.opened_at, e.clicked_at,
           jsonb_array_length(e.opens)::int AS opens_count, jsonb_array_length(e.clicked_links)::int AS clicks_count,
           o.tracking_enabled
    FROM emails e JOIN organizations o ON o.id = e.organization_id
    WHERE e.id = ${emailId}::uuid AND e.direction = 'outbound'
    FOR UPDATE OF e`;
  return row;
}

const clip = (value: string | null, max: number) => (value === null ? null : value.slice(0, max));

/** The visitor as stored: bounded, so a hostile header cannot bloat the row. */
export const visitorFields = (visitor: Visitor) => ({ user_agent: clip(visitor.userAgent, 500), ip: clip(visitor.ip, 64) });
