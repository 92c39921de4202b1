import { Badge } from "@/components/ui/badge";
import { Callout } from "@/components/ui/callout";

type Suppression = { reason: string; suppressed_at: string | Date } | null;

// D's reasons and the older `bounce`; anything else is shown as it is.
const reasons: Record<string, string> = {
  bounce: "the address bounced",
  hard_bounce: "the address bounced",
  soft_bounce: "the address kept bouncing",
  complaint: "the recipient marked an email as spam",
  unsubscribe: "the recipient unsubscribed",
  manual: "it was suppressed by hand",
};

const day = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeZone: "UTC" });

/** Why and since when an address gets no email: the suppression list wins over `subscribed`. */
const suppressionText = (s: NonNullable<Suppression>) =>
  `No email is sent to this address: ${reasons[s.reason] ?? s.reason} (since ${day.format(new Date(s.suppressed_at))}).`;

export function SuppressionBadge({ suppression }: { suppression: Suppression }) {
  if (!suppression) return null;
  return (
    <Badge tone="danger" title={suppressionText(suppression)}>
      Suppressed
    </Badge>
  );
}

export function SuppressionCallout({ suppression }: { suppression: Suppression | undefined }) {
  if (!suppression) return null;
  return (
    <Callout tone="danger" title="Suppressed">
      {suppressionText(suppression)}
    </Callout>
  );
}
