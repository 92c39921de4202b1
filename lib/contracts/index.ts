import type { Contract, RouteOf } from "./contract";
import type * as Account from "./account";
import type * as ApiKeys from "./api-keys";
import type * as AuditLog from "./audit-log";
import type * as Automations from "./automations";
import type * as BroadcastSending from "./broadcast-sending";
import type * as Broadcasts from "./broadcasts";
import type * as ContactData from "./contact-data";
import type * as ContactBulkActions from "./contact-bulk-actions";
import type * as ContactProperties from "./contact-properties";
import type * as ContactTopics from "./contact-topics";
import type * as Contacts from "./contacts";
import type * as ContactRelations from "./contact-relations";
import type * as Domains from "./domains";
import type * as Emails from "./emails";
import type * as Events from "./events";
import type * as Forms from "./forms";
import type * as Inboxes from "./inboxes";
import type * as Invitations from "./invitations";
import type * as Media from "./media";
import type * as Members from "./members";
import type * as Organization from "./organization";
import type * as PresendChecks from "./presend-checks";
import type * as Reports from "./reports";
import type * as Sections from "./sections";
import type * as Segments from "./segments";
import type * as Suppressions from "./suppressions";
import type * as Templates from "./templates";
import type * as TestSends from "./test-sends";
import type * as Threads from "./threads";
import type * as Topics from "./topics";
import type * as Webhooks from "./webhooks";

// Type-only: the dashboard names an operation by its route and gets its contract's types, while
// the contracts themselves (and zod, ~47 KB gzipped) stay out of pages that do not validate forms.
type Modules = typeof Account &
  typeof ApiKeys &
  typeof AuditLog &
  typeof Automations &
  typeof BroadcastSending &
  typeof Broadcasts &
  typeof ContactData &
  typeof ContactBulkActions &
  typeof ContactProperties &
  typeof ContactTopics &
  typeof Contacts &
  typeof ContactRelations &
  typeof Domains &
  typeof Emails &
  typeof Events &
  typeof Forms &
  typeof Inboxes &
  typeof Invitations &
  typeof Media &
  typeof Members &
  typeof Organization &
  typeof PresendChecks &
  typeof Reports &
  typeof Sections &
  typeof Segments &
  typeof Suppressions &
  typeof Templates &
  typeof TestSends &
  typeof Threads &
  typeof Topics &
  typeof Webhooks;

/** Every contract of the API (/v1 and the dashboard's account routes). */
type AnyContract = { [K in keyof Modules]: Modules[K] extends Contract ? Modules[K] : never }[keyof Modules];

/** Every route the dashboard may call: `"GET /v1/segments/{id}"`, …; a typo is a compile error. */
export type Route = RouteOf<AnyContract>;

/** The contract a route names. */
export type ContractOf<R extends Route> = AnyContract extends infer C ? (C extends AnyContract ? (RouteOf<C> extends R ? C : never) : never) : never;
