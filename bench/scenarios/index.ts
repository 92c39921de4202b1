import { attachmentMemoryScenario } from "./attachment-memory";
import { automationsScenario } from "./automations";
import { broadcastReportScenario } from "./broadcast-report";
import { broadcastSendScenario } from "./broadcast-send";
import { bulkScenario } from "./bulk";
import { cancelLargeScenario } from "./cancel-large";
import { checkEmailsScenario } from "./check-emails";
import { contactsExportScenario } from "./contacts-export";
import { conditionalBlocksScenario } from "./conditional-blocks";
import { dashboardScenario } from "./dashboard";
import { dynamicSegmentScenario } from "./dynamic-segment";
import { emailBatchScenario } from "./email-batch";
import { eventsIngestScenario } from "./events-ingest";
import { formSubmitScenario } from "./form-submit";
import { getBroadcastScenario } from "./get-broadcast";
import { imapRepliesScenario } from "./imap-replies";
import { importScenario } from "./import";
import { importThenSendScenario } from "./import-then-send";
import { intakeScenario } from "./intake";
import { listContactsScenario } from "./list-contacts";
import { listEmailsScenario } from "./list-emails";
import { retentionBesideSendScenario } from "./retention-beside-send";
import { sendAt10mScenario } from "./send-at-10m";
import { memoryListScenario } from "./memory-list";
import { slowRelayScenario } from "./slow-relay";
import { scaleWebScenario, scaleWorkersScenario } from "./scale-out";
import type { Scenario } from "./scenario";
import { submissionScenario } from "./submission";
import { threadInboxScenario } from "./thread-inbox";

/** In the order of the table; the import runs first, on a contacts table no other scenario has filled yet. */
export const scenarios: Scenario[] = [
  importScenario,
  bulkScenario,
  checkEmailsScenario,
  listContactsScenario,
  listEmailsScenario,
  getBroadcastScenario,
  broadcastSendScenario,
  slowRelayScenario,
  scaleWorkersScenario,
  scaleWebScenario,
  importThenSendScenario,
  broadcastReportScenario,
  memoryListScenario,
  intakeScenario,
  emailBatchScenario,
  submissionScenario,
  attachmentMemoryScenario,
  dashboardScenario,
  dynamicSegmentScenario,
  threadInboxScenario,
  imapRepliesScenario,
  eventsIngestScenario,
  contactsExportScenario,
  formSubmitScenario,
  automationsScenario,
  conditionalBlocksScenario,
  // Tables that grow (issue 29): each on databases of its own.
  cancelLargeScenario,
  retentionBesideSendScenario,
  sendAt10mScenario,
];
