/**
 * Every react-query key of the dashboard, in one place.
 *
 * The rule that keeps the cache honest: one key, one shape. Each leaf key below is read by
 * exactly one hook (lib/client/resources/*), so two screens can never store different shapes
 * under the same key (Settings kept the inbox list envelope under ["inboxes"] while the sender
 * picker kept a plain array there, and whichever loaded second crashed the other).
 *
 * Shape: `[resource, kind, ...args]`. `all()` is the prefix to invalidate everything about a
 * resource; `list()` is the prefix of its paged lists (the pager appends its cursor); `options()`
 * is every record as an array, for pickers; `detail(id)` one record, and what hangs off it nests
 * under it (`steps(id)`, `report(id)`), so invalidating `detail(id)` refreshes those too unless
 * `exact: true` is passed.
 */
type Page = Record<string, string | number | boolean | null | undefined>;

const resource = <R extends string>(name: R) => ({
  all: () => [name] as const,
  list: () => [name, "list"] as const,
  options: () => [name, "options"] as const,
  detail: (id: string) => [name, "detail", id] as const,
});

const broadcasts = resource("broadcasts");
const contacts = resource("contacts");
const emails = resource("emails");
const webhooks = resource("webhooks");
const automations = resource("automations");

export const queryKeys = {
  session: () => ["session"] as const,
  organization: () => ["organization"] as const,
  broadcasts: {
    ...broadcasts,
    steps: (id: string) => [...broadcasts.detail(id), "steps"] as const,
    sendStatus: (id: string) => [...broadcasts.detail(id), "send-status"] as const,
    checks: (id: string) => [...broadcasts.detail(id), "checks"] as const,
    /** A follow-up step's pre-send checks. */
    stepChecks: (id: string, stepId: string) => [...broadcasts.detail(id), "checks", stepId] as const,
    /** The first email or a step rendered as a contact (step and contact ids, or none). */
    preview: (id: string, query: Page) => [...broadcasts.detail(id), "preview", query] as const,
    report: (id: string) => [...broadcasts.detail(id), "report"] as const,
    /** A page of the recipients with one event: the filter and the pager's cursor. */
    recipients: (id: string, query: Page) => [...broadcasts.detail(id), "recipients", query] as const,
    /** The organization's rates over its recent broadcasts, which a report is compared with. */
    average: () => ["broadcasts", "average"] as const,
  },
  templates: resource("templates"),
  inboxes: resource("inboxes"),
  topics: resource("topics"),
  forms: resource("forms"),
  segments: {
    ...resource("segments"),
    /** The live count and sample of a filter being built (its JSON). */
    preview: (filter: string) => ["segments", "preview", filter] as const,
  },
  contactProperties: resource("contact-properties"),
  media: resource("media"),
  sections: resource("sections"),
  domains: resource("domains"),
  apiKeys: resource("api-keys"),
  members: resource("members"),
  invitations: resource("invitations"),
  contacts: {
    ...contacts,
    page: (query: Page) => [...contacts.list(), query] as const,
    /** The placeholder menu: contact fields and the metadata keys present in the organization. */
    fields: () => ["contacts", "fields"] as const,
    /** The contact page: its timeline (pages of GET /v1/contacts/{id}/events), segments and topics. */
    events: (id: string) => [...contacts.detail(id), "events"] as const,
    segments: (id: string) => [...contacts.detail(id), "segments"] as const,
    topics: (id: string) => [...contacts.detail(id), "topics"] as const,
  },
  emails: {
    ...emails,
    page: (query: Page) => [...emails.list(), query] as const,
    comments: (emailId: string) => [...emails.detail(emailId), "comments"] as const,
  },
  threads: {
    ...resource("threads"),
    /** The unified inbox with its filters; its pages are an infinite query's. */
    inbox: (filters: Page) => ["threads", "list", filters] as const,
  },
  webhooks: {
    ...webhooks,
    deliveries: (id: string) => [...webhooks.detail(id), "deliveries"] as const,
    /** One delivery with its log; under `deliveries(id)`, so refreshing the list refreshes it too. */
    delivery: (id: string, deliveryId: string) => [...webhooks.detail(id), "deliveries", "one", deliveryId] as const,
  },
  automations: {
    ...automations,
    /** A page of an automation's runs: the contact filter and the pager's cursor. */
    runs: (id: string, query: Page) => [...automations.detail(id), "runs", query] as const,
  },
  overview: () => ["overview"] as const,
  /** The signed-in user's own settings (GET /api/account). */
  account: () => ["account"] as const,
  auditLog: {
    list: () => ["audit-log", "list"] as const,
    page: (query: Page) => ["audit-log", "list", query] as const,
  },
  suppressions: {
    all: () => ["suppressions"] as const,
    page: (query: Page) => ["suppressions", "list", query] as const,
  },
} as const;
