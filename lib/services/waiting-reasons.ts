import type { Broadcast } from "@/lib/generated/prisma/client";
import { db } from "@/lib/db";
import { WEEKDAYS, type SendingWindow } from "@/lib/domain/sending-window";
import { SEQUENCE_EXIT_PREFIX } from "@/lib/sequences/dispatch";
import { COMPANY_REPLIED } from "@/lib/sequences/exit-reason";
import { LEFT_OUT_IN_OTHER_SEQUENCE } from "@/lib/sending/other-sequences";
import type { Reason } from "./why-not-sending";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "Mon–Fri 09:00–17:00, each recipient's time zone" */
function describeWindow(window: SendingWindow): string {
  const days = WEEKDAYS.filter((day) => window.days.includes(day));
  const contiguous = days.length > 2 && WEEKDAYS.indexOf(days[days.length - 1]) - WEEKDAYS.indexOf(days[0]) === days.length - 1;
  const name = (day: string) => day[0].toUpperCase() + day.slice(1);
  const dayText = contiguous ? `${name(days[0])}–${name(days[days.length - 1])}` : days.map(name).join(", ");
  const zone = window.timezone === "contact" ? "each recipient's time zone" : window.timezone;
  return `${dayText} ${window.start}–${window.end}, ${zone}`;
}

/**
 * What holds back emails of a sending broadcast that are not failing: those `scheduled` for a
 * window's opening or an out-of-office return (how many, and until when), and the recipients the
 * sequence guards took out (left out at the start, or stopped when a colleague replied).
 */
export async function waitingReasons(b: Broadcast, now: Date): Promise<Reason[]> {
  const [held] = await db.$queryRaw<{ windowed: number; window_next: Date | null; away: number; away_next: Date | null }[]>`
    SELECT count(*) FILTER (WHERE NOT x.away)::int AS windowed, min(x.scheduled_at) FILTER (WHERE NOT x.away) AS window_next,
      count(*) FILTER (WHERE x.away)::int AS away, min(x.scheduled_at) FILTER (WHERE x.away) AS away_next
    FROM (
      SELECT e.scheduled_at, COALESCE(c.away_until >= e.scheduled_at, false) AS away
      FROM emails e LEFT JOIN contacts c ON c.id = e.contact_id AND c.organization_id = e.organization_id
      WHERE e.broadcast_id = ${b.id}::uuid AND e.organization_id = ${b.organization_id}::uuid
        AND e.status = 'scheduled' AND e.scheduled_at IS NOT NULL AND e.scheduled_at > ${now}
    ) x`;
  const [guards] = await db.$queryRaw<{ left_out: number; company: number }[]>`
    SELECT count(*) FILTER (WHERE last_error = ${LEFT_OUT_IN_OTHER_SEQUENCE})::int AS left_out,
      count(*) FILTER (WHERE last_error = ${SEQUENCE_EXIT_PREFIX + COMPANY_REPLIED})::int AS company
    FROM emails WHERE broadcast_id = ${b.id}::uuid AND organization_id = ${b.organization_id}::uuid AND status = 'cancelled'`;
  const reasons: Reason[] = [];
  const window = b.sending_window as SendingWindow | null;
  if (held.windowed > 0 && held.window_next) {
    const why = window ? `the sending window (${describeWindow(window)})` : "their business-day delay";
    const at = held.window_next.toISOString();
    reasons.push({
      code: "WAITING_FOR_WINDOW",
      message: `${plural(held.windowed, "email waits", "emails wait")} for ${why}; the next goes at ${at}.`,
      resumes_at: at,
    });
  }
  if (held.away > 0 && held.away_next) {
    const at = held.away_next.toISOString();
    reasons.push({
      code: "OUT_OF_OFFICE",
      message: `${plural(held.away, "follow-up is", "follow-ups are")} held until the recipient is back from out of office; the first at ${at}.`,
      resumes_at: at,
    });
  }
  if (guards.left_out > 0) {
    reasons.push({
      code: "IN_OTHER_SEQUENCE",
      message: `${plural(guards.left_out, "contact was", "contacts were")} left out: already in another active sales sequence of the organization.`,
    });
  }
  if (guards.company > 0) {
    reasons.push({
      code: "COMPANY_REPLIED",
      message: `${plural(guards.company, "recipient left", "recipients left")} the sequence because someone at their company replied.`,
    });
  }
  return reasons;
}
