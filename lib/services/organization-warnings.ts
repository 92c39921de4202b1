import type { OrgContext } from "@/lib/domain/context";
import { db } from "@/lib/db";
import type { OrganizationWarning } from "@/lib/schemas/reports";
import { inboxProvenSql } from "@/lib/senders/proof";

/** What the sending figures of the last 30 days say, for the rate warnings. */
export type SendingHealth = { sent: number; bounced: number; complained: number };

/** Gmail and Yahoo act on a spam complaint rate of 0.3 %; warn before it is reached. */
const COMPLAINT_LIMIT = 0.003;
const COMPLAINT_WARNING = 0.002;
/** Hard bounces past 5 % mark a list as unkempt (the breaker threshold of issue 9); warn at 4 %. */
const BOUNCE_LIMIT = 0.05;
const BOUNCE_WARNING = 0.04;

const percent = (value: number) => `${(value * 100).toFixed(2).replace(/\.?0+$/, "")} %`;

/**
 * A source of warnings. Each reads what it needs and answers what is wrong now; the overview shows
 * them all. Sources of new checks (per-record domain statuses, breakers) are added to the list
 * below, and `collectWarnings` stays the one place the dashboard asks.
 */
export type WarningSource = (ctx: OrgContext, health: SendingHealth) => Promise<OrganizationWarning[]>;

const domainWarnings: WarningSource = async (ctx) => {
  const domains = await db.domain.findMany({
    where: { organization_id: ctx.organizationId, status: { not: "verified" } },
    select: { id: true, name: true, status: true },
    orderBy: { name: "asc" },
    take: 50,
  });
  return domains.map((domain) =>
    domain.status === "failed"
      ? {
          code: "DOMAIN_FAILING",
          severity: "critical",
          message: `${domain.name} failed verification: its DNS records are missing or wrong, so mail from it cannot be sent or signed.`,
          resource: { type: "domain", id: domain.id, name: domain.name },
        }
      : {
          code: "DOMAIN_PENDING",
          severity: "warning",
          message: `${domain.name} is not verified yet: publish its DNS records, then verify it.`,
          resource: { type: "domain", id: domain.id, name: domain.name },
        },
  );
};

type InboxRow = { id: string; name: string; from_email: string; paused: boolean; last_error: string | null; failed: boolean; proven: boolean };

const inboxWarnings: WarningSource = async (ctx) => {
  const inboxes = await db.$queryRaw<InboxRow[]>`
    SELECT i.id, i.name, i.from_email, i.paused, i.last_error, i.status = 'error' AS failed, ${inboxProvenSql("i")} AS proven
    FROM inboxes i
    WHERE i.organization_id = ${ctx.organizationId}::uuid AND (i.paused OR i.last_error IS NOT NULL OR NOT ${inboxProvenSql("i")})
    ORDER BY i.name, i.id
    LIMIT 50`;
  return inboxes.map((inbox) => {
    const resource = { type: "inbox" as const, id: inbox.id, name: `${inbox.name} <${inbox.from_email}>` };
    if (inbox.failed) {
      return {
        code: "INBOX_FAILED",
        severity: "critical" as const,
        message: `${inbox.name} stopped sending and reading replies: ${(inbox.last_error ?? "its servers kept failing").slice(0, 300)}. Test or reconnect it in Settings → Inboxes.`,
        resource,
      };
    }
    if (inbox.last_error) {
      return { code: "INBOX_FAILING", severity: "critical" as const, message: `${inbox.name} cannot send: ${inbox.last_error.slice(0, 300)}`, resource };
    }
    if (inbox.paused) {
      return { code: "INBOX_PAUSED", severity: "warning" as const, message: `${inbox.name} is paused: nothing is sent from it until it is resumed.`, resource };
    }
    return {
      code: "INBOX_UNVERIFIED",
      severity: "warning" as const,
      message: `${inbox.name} cannot send until ${inbox.from_email} is proven: confirm it by the link mailed through the inbox, or verify its domain.`,
      resource,
    };
  });
};

const rateWarnings: WarningSource = async (_ctx, health) => {
  const warnings: OrganizationWarning[] = [];
  if (health.sent === 0) return warnings;
  const organization = { type: "organization" as const, id: null, name: "Last 30 days" };
  const complaints = health.complained / health.sent;
  if (health.complained > 0 && complaints >= COMPLAINT_WARNING) {
    warnings.push({
      code: "COMPLAINT_RATE",
      severity: complaints >= COMPLAINT_LIMIT ? "critical" : "warning",
      message: `${health.complained.toLocaleString("en")} spam complaints in 30 days: ${percent(complaints)} of the mail sent, ${complaints >= COMPLAINT_LIMIT ? "over" : "near"} the 0.3 % at which Gmail and Yahoo start refusing it.`,
      resource: organization,
    });
  }
  const bounces = health.bounced / health.sent;
  if (bounces >= BOUNCE_WARNING) {
    warnings.push({
      code: "BOUNCE_RATE",
      severity: bounces >= BOUNCE_LIMIT ? "critical" : "warning",
      message: `${percent(bounces)} of the mail of the last 30 days bounced: clean the lists of addresses that no longer exist.`,
      resource: organization,
    });
  }
  return warnings;
};

const SOURCES: WarningSource[] = [domainWarnings, inboxWarnings, rateWarnings];

const SEVERITY_ORDER = { critical: 0, warning: 1 } as const;

/** Every warning about the organization's sending, the most severe first. */
export async function collectWarnings(ctx: OrgContext, health: SendingHealth): Promise<OrganizationWarning[]> {
  const found = (await Promise.all(SOURCES.map((source) => source(ctx, health)))).flat();
  return found.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
}
