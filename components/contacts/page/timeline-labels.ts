import {
  Ban,
  Bot,
  ClipboardCheck,
  CircleAlert,
  Inbox,
  MailCheck,
  MailOpen,
  MessageSquareReply,
  MousePointerClick,
  Pencil,
  Send,
  Sparkles,
  ToggleLeft,
  ToggleRight,
  UserPlus,
  Workflow,
  type LucideIcon,
} from "lucide-react";

/** A timeline event as GET /v1/contacts/{id}/events answers it. */
export type TimelineEvent = { id: string; name: string; properties: Record<string, unknown>; occurred_at: string; source: string; email_id: string | null };

export type TimelineTone = "neutral" | "brand" | "success" | "danger" | "warning" | "automation";

/** What a person reads for one event: a sentence, the email it is about, details and how it looks. */
export type TimelineLabel = {
  /** "Opened", "Clicked link in", … followed by the email's subject when there is one. */
  action: string;
  /** Whether the email's subject follows the action ("Opened *The offer*"). */
  withSubject: boolean;
  details: string[];
  icon: LucideIcon;
  tone: TimelineTone;
  machine: boolean;
};

const FIELD_NAMES: Record<string, string> = {
  email: "email",
  first_name: "first name",
  last_name: "last name",
  metadata: "properties",
  subscribed: "subscription",
  tags: "tags",
  timezone: "time zone",
};
const UNSUBSCRIBED_HOW: Record<string, string> = {
  link: "with the link in an email",
  complaint: "by reporting an email as spam",
  api: "through the API or the dashboard",
  preferences: "on the preference page",
};
/** Who made a topic choice, by the event's source. */
const CHOSEN_HOW: Record<string, string> = {
  preferences: "on the preference page",
  forms: "through a form",
  contacts: "through the API or the dashboard",
};

const asRecord = (value: unknown) => (value && typeof value === "object" ? (value as Record<string, unknown>) : {});
const text = (value: unknown) => (typeof value === "string" ? value : value === undefined || value === null ? "" : JSON.stringify(value));

/** A custom event's properties as "key: value" lines, the first few (a value cut to one line). */
function propertyLines(properties: Record<string, unknown>, most = 6): string[] {
  const entries = Object.entries(properties);
  const lines = entries.slice(0, most).map(([key, value]) => `${key}: ${text(value).slice(0, 120)}`);
  if (entries.length > most) lines.push(`and ${entries.length - most} more`);
  return lines;
}

/** How the contact page tells an event: built-in ones in words, custom ones by name with their properties. */
export function timelineLabel(event: TimelineEvent): TimelineLabel {
  const p = event.properties;
  const machine = p.machine === true;
  const base = { details: [] as string[], machine, withSubject: true };
  switch (event.name) {
    case "email.sent":
      return { ...base, action: "Sent", icon: Send, tone: "neutral" };
    case "email.delivered":
      return { ...base, action: "Delivered", icon: MailCheck, tone: "success" };
    case "email.opened":
      return { ...base, action: "Opened", icon: machine ? Bot : MailOpen, tone: "brand" };
    case "email.clicked":
      return { ...base, action: "Clicked link in", details: [text(p.link)].filter(Boolean), icon: machine ? Bot : MousePointerClick, tone: "brand" };
    case "email.bounced": {
      const bounce = asRecord(p.bounce);
      return {
        ...base,
        action: bounce.type === "soft" ? "Soft bounce of" : "Bounced:",
        details: [text(bounce.message)].filter(Boolean),
        icon: CircleAlert,
        tone: bounce.type === "soft" ? "warning" : "danger",
      };
    }
    case "email.complained":
      return { ...base, action: "Reported as spam:", icon: Ban, tone: "danger" };
    case "email.replied":
      return { ...base, action: "Replied to", details: [text(asRecord(p.reply).subject)].filter(Boolean), icon: MessageSquareReply, tone: "success" };
    case "email.failed":
      return { ...base, action: "Could not send", details: [text(p.reason)].filter(Boolean), icon: CircleAlert, tone: "danger" };
    case "contact.created":
      return { ...base, withSubject: false, action: event.source === "import" ? "Imported as a contact" : "Became a contact", icon: UserPlus, tone: "neutral" };
    case "contact.updated": {
      const changed = Array.isArray(p.changed) ? p.changed.map((field) => FIELD_NAMES[String(field)] ?? String(field)) : [];
      return { ...base, withSubject: false, action: changed.length ? `Updated ${changed.join(", ")}` : "Updated", icon: Pencil, tone: "neutral" };
    }
    case "contact.subscribed":
      return {
        ...base,
        withSubject: false,
        action: event.source === "forms" ? "Subscribed through a form" : "Subscribed again",
        icon: UserPlus,
        tone: "success",
      };
    case "contact.topic_subscribed":
    case "contact.topic_unsubscribed": {
      const joined = event.name === "contact.topic_subscribed";
      const topic = text(p.topic_name) || "a topic";
      return {
        ...base,
        withSubject: false,
        action: joined ? `Subscribed to ${topic}` : `Unsubscribed from ${topic}`,
        details: [CHOSEN_HOW[event.source] ?? ""].filter(Boolean),
        icon: joined ? ToggleRight : ToggleLeft,
        tone: joined ? "success" : "warning",
      };
    }
    case "form.submitted":
      // Not a reserved name: an application may send its own form.submitted, told as a custom event.
      if (event.source !== "forms") break;
      return { ...base, withSubject: false, action: `Submitted the form ${text(p.form_name)}`.trim(), icon: ClipboardCheck, tone: "brand" };
    case "contact.unsubscribed":
      return {
        ...base,
        withSubject: false,
        action: "Unsubscribed",
        details: [UNSUBSCRIBED_HOW[text(p.reason)] ?? ""].filter(Boolean),
        icon: Ban,
        tone: "warning",
      };
  }
  // Automations record their steps as `automation.*` events: shown as steps of a flow.
  if (event.name.startsWith("automation.")) {
    return {
      ...base,
      withSubject: false,
      action: `Automation: ${event.name.slice("automation.".length).replaceAll("_", " ")}`,
      details: propertyLines(p),
      icon: Workflow,
      tone: "automation",
    };
  }
  return { ...base, withSubject: false, action: event.name, details: propertyLines(p), icon: event.source === "api" ? Sparkles : Inbox, tone: "neutral" };
}
