import type { AnyOperation } from "@/lib/api/operation";
import { apiKeyOperations } from "./api-keys";
import { auditLogOperations } from "./audit-log";
import { automationsOperations } from "./automations";
import { broadcastsOperations } from "./broadcasts";
import { broadcastSendingOperations } from "./broadcast-sending";
import { contactDataOperations } from "./contact-data";
import { contactBulkActionsOperations } from "./contact-bulk-actions";
import { contactPropertiesOperations } from "./contact-properties";
import { contactTopicsOperations } from "./contact-topics";
import { contactsOperations } from "./contacts";
import { contactRelationsOperations } from "./contact-relations";
import { domainsOperations } from "./domains";
import { emailsOperations } from "./emails";
import { eventsOperations } from "./events";
import { formsOperations } from "./forms";
import { inboxesOperations } from "./inboxes";
import { invitationsOperations } from "./invitations";
import { mediaOperations } from "./media";
import { membersOperations } from "./members";
import { organizationOperations } from "./organization";
import { presendCheckOperations } from "./presend-checks";
import { reportsOperations } from "./reports";
import { sectionsOperations } from "./sections";
import { segmentsOperations } from "./segments";
import { suppressionsOperations } from "./suppressions";
import { templatesOperations } from "./templates";
import { testSendOperations } from "./test-sends";
import { threadsOperations } from "./threads";
import { topicsOperations } from "./topics";
import { webhooksOperations } from "./webhooks";

/** Every /v1 operation: served by app/v1, described by /v1/openapi.json, fuzzed by the tests. */
export const operations: AnyOperation[] = [
  ...apiKeyOperations,
  ...auditLogOperations,
  ...automationsOperations,
  ...broadcastsOperations,
  ...broadcastSendingOperations,
  ...contactDataOperations,
  ...contactBulkActionsOperations,
  ...contactPropertiesOperations,
  ...contactTopicsOperations,
  ...contactsOperations,
  ...contactRelationsOperations,
  ...domainsOperations,
  ...emailsOperations,
  ...eventsOperations,
  ...formsOperations,
  ...inboxesOperations,
  ...invitationsOperations,
  ...mediaOperations,
  ...membersOperations,
  ...organizationOperations,
  ...presendCheckOperations,
  ...reportsOperations,
  ...sectionsOperations,
  ...segmentsOperations,
  ...suppressionsOperations,
  ...templatesOperations,
  ...testSendOperations,
  ...threadsOperations,
  ...topicsOperations,
  ...webhooksOperations,
];
