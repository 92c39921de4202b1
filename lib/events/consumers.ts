import { automationsConsumer } from "@/lib/automations/event-consumer";
import { webhookConsumer } from "@/lib/webhooks/announce";
import type { EventConsumer } from "./consumer";

/**
 * Every consumer of recorded events, in the order they run within a dispatch. To add one (automation
 * triggers, `wait_for_event`, dynamic-segment re-evaluation): write an EventConsumer (./consumer.ts
 * says what it may do) in its own module and list it here. Recorders do not change: every fact is
 * already recorded and announced through recordEvents / recordEventsCtes.
 */
export const eventConsumers: EventConsumer[] = [webhookConsumer, automationsConsumer];
