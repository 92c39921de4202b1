import type { Task } from "graphile-worker";
import { dropOrphanCounterDeltas, foldBroadcastCounters } from "@/lib/sending/broadcast-counters";
import { pacedCancelRound } from "@/lib/sending/cancel-emails";
import { completeFinishedBroadcasts } from "@/lib/sending/complete-broadcasts";
import { decideDueAbTests, startBroadcast, startOverdueBroadcasts } from "@/lib/sending/fan-out";
import { BROADCAST_START_TASK, parseBroadcastStartPayload } from "@/lib/sending/queue";
import { pruneSentAttachments, releaseScheduledEmails } from "@/lib/sending/scheduled-emails";
import { createSender } from "@/lib/sending/sender";
import { placeWindowedEmails, releaseWaitingBroadcastEmails } from "@/lib/sending/windows";
import { createReplyPoller } from "@/lib/replies/poll-replies";
import { dispatchSequenceSteps } from "@/lib/sequences/dispatch";
import { runDueAutomations } from "@/lib/automations/engine";
import { sweepDynamicSegments } from "@/lib/automations/dynamic-segments";
import { deliverWebhooks } from "@/lib/webhooks/deliver";
import { dispatchEvents } from "@/lib/events/dispatch";
import { processFeedbackReports, pruneFeedbackReports } from "@/lib/feedback/process-reports";
import { recheckDomains } from "@/lib/services/domains";
import { pacedRetentionRound } from "@/lib/retention/run";
import { queueDueConfirmations } from "@/lib/services/form-confirmations";
import { CONTACT_BULK_TASK, parseContactBulkPayload, runContactBulkJob } from "@/lib/services/contact-bulk-actions";

/**
 * A background loop: `run` does one round and answers how much it did; it runs again at once when
 * that was > 0, else after `intervalMs`. `concurrency` rounds may run side by side (default 1).
 */
export type LoopTask = {
  name: string;
  intervalMs: number;
  run: () => Promise<number>;
  concurrency?: number;
  /** Called once as the worker starts, before the first round. */
  start?: () => void;
  /** Called as the worker starts stopping, before it waits for the rounds in progress (to cut them short). */
  interrupt?: () => void;
  close?: () => void | Promise<void>;
};

/** A graphile-worker task: jobs named `name`, keyed by the entity they are about. */
export type QueueTask = { name: string; task: Task };

export type WorkerTask = LoopTask | QueueTask;

export const isLoopTask = (task: WorkerTask): task is LoopTask => "run" in task;

const sender = createSender({ batchSize: 200 });
const replyPoller = createReplyPoller();
let attachmentsPrunedAt = 0;

/** Everything the worker runs. Each engine appends its own entries. */
export const workerTasks: WorkerTask[] = [
  {
    name: BROADCAST_START_TASK,
    task: async (payload) => {
      await startBroadcast(parseBroadcastStartPayload(payload).broadcastId);
    },
  },
  {
    name: CONTACT_BULK_TASK,
    task: async (payload) => {
      await runContactBulkJob(parseContactBulkPayload(payload));
    },
  },
  // Batches are claimed and prepared while earlier ones are still going out, so the SMTP
  // connections always have the next emails queued; three lanes hide one another's database round
  // trips. On shutdown the emails not yet handed to SMTP are given back for another worker.
  {
    name: "emails:send",
    intervalMs: 250,
    run: sender.dispatchOnce,
    concurrency: 3,
    start: sender.start,
    close: async () => {
      await sender.stop();
      await sender.close();
    },
  },
  {
    name: "broadcasts:housekeeping",
    intervalMs: 10_000,
    run: async () => {
      await dropOrphanCounterDeltas();
      return (await startOverdueBroadcasts()) + (await decideDueAbTests()) + (await completeFinishedBroadcasts());
    },
  },
  // A cancelled broadcast's queued emails, a batch a round (lib/sending/cancel-emails.ts): what the
  // cancel's request left, or what a worker killed mid-way did not finish.
  { name: "broadcasts:cancel", intervalMs: 1_000, run: pacedCancelRound },
  // Sent and bounced counts reach the broadcast's record within about a second (record-outcomes.ts
  // writes deltas). Always answers 0: the next fold waits its interval however much this one did.
  {
    name: "broadcasts:counters",
    intervalMs: 1_000,
    run: async () => {
      await foldBroadcastCounters();
      return 0;
    },
  },
  // Scheduled emails of POST /v1/emails, queued at their time (checked every second: a minute's
  // precision would be a late email); their attachments dropped once they are sent.
  {
    name: "emails:scheduled",
    intervalMs: 1_000,
    run: async () => {
      if (Date.now() - attachmentsPrunedAt > 60_000) {
        attachmentsPrunedAt = Date.now();
        await pruneSentAttachments();
      }
      return releaseScheduledEmails();
    },
  },
  // Broadcast emails under a sending window (or a business-day delay, or back from an out-of-office
  // hold) get their opening in the recipient's zone; those whose opening has come are queued.
  // Waiting ones are `scheduled` in the meantime, out of the sender's way.
  {
    name: "emails:windows",
    intervalMs: 1_000,
    run: async () => (await releaseWaitingBroadcastEmails()) + (await placeWindowedEmails()),
  },
  { name: "sequences:dispatch", intervalMs: 15_000, run: () => dispatchSequenceSteps() },
  // Automation runs whose time has come (lib/automations): claimed in batches, fairly across
  // organizations, each batch's steps done in one transaction; its emails join the sending queue.
  { name: "automations:run", intervalMs: 500, run: () => runDueAutomations() },
  // Dynamic segments that trigger automations, compared with the members each last saw: entries no
  // event announces (time passing under "opened in the last 30 days"). Events re-judge their own
  // contacts at once (lib/automations/event-consumer.ts); this catches the rest within a minute.
  { name: "automations:segments", intervalMs: 60_000, run: () => sweepDynamicSegments() },
  // Inboxes are polled side by side, one per lane (IMAP_POLL_CONCURRENCY), each poll bounded
  // (docs/SECURITY.md, "IMAP reply polling"); an idle lane looks for a due inbox every 5 s.
  {
    name: "replies:poll",
    intervalMs: 5_000,
    run: replyPoller.pollNext,
    concurrency: replyPoller.concurrency,
    interrupt: replyPoller.abort,
  },
  // Recorded events through their consumers (lib/events/consumers.ts: webhook deliveries, …). A
  // short interval: automation triggers react within seconds, and an empty outbox costs one index probe.
  { name: "events:dispatch", intervalMs: 200, run: () => dispatchEvents() },
  { name: "webhooks:deliver", intervalMs: 2_000, run: () => deliverWebhooks() },
  // Delivery reports and complaints stored by the inbound listener or found in inboxes.
  {
    name: "feedback:process",
    intervalMs: 1_000,
    run: async () => {
      await pruneFeedbackReports();
      return processFeedbackReports();
    },
  },
  // Signup forms' confirmation emails (double opt-in), owed by submissions and made emails here,
  // so the public endpoint renders and writes no email while the visitor waits.
  { name: "forms:confirmations", intervalMs: 250, run: () => queueDueConfirmations() },
  // Retention (EMAIL_BODY_RETENTION_DAYS, EVENT_RETENTION_DAYS, TRACKING_RETENTION_DAYS): old
  // bodies, events and tracking hits cleared in small paced batches (lib/retention); every minute
  // once caught up, and not at all while every setting is 0.
  { name: "retention", intervalMs: 60_000, run: pacedRetentionRound },
  // Verified domains' DNS records, each checked again once a day.
  { name: "domains:recheck", intervalMs: 10 * 60_000, run: () => recheckDomains() },
];
