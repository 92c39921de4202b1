import { WEEKDAYS, type Weekday } from "@/lib/domain/sending-window";
import type { UpdateAutomationInput } from "@/lib/schemas/automations";
import type { AutomationDraft } from "./use-automation-draft";

// Apart from the dialog, so the builder applies settings without loading the dialog's form and zod.

export type SettingsValues = {
  name: string;
  trigger_type: "event" | "segment_entered";
  event: string;
  segment_id: string;
  reentry: "never" | "after_exit";
  sequence_mode: "marketing" | "sales";
  inbox_ids: string[];
  from_email: string;
  from_name: string;
  /** Off: no window (`sending_window: null`); the fields below keep their values meanwhile. */
  window_enabled: boolean;
  sending_window: { days: Weekday[]; start: string; end: string; timezone: string };
};

/** Office hours in each contact's zone: what a window is for, offered when it is switched on. */
export const OFFICE_HOURS = { days: ["mon", "tue", "wed", "thu", "fri"] as Weekday[], start: "09:00", end: "17:00", timezone: "contact" };

/** The settings as the API takes them (the `where` of an event trigger is kept). */
export function settingsBody(values: SettingsValues, current: AutomationDraft): UpdateAutomationInput {
  const where = current.trigger.type === "event" && values.trigger_type === "event" ? current.trigger.where : undefined;
  return {
    name: values.name,
    trigger:
      values.trigger_type === "event"
        ? { type: "event", event: values.event.trim(), ...(where ? { where } : {}) }
        : { type: "segment_entered", segment_id: values.segment_id },
    reentry: values.reentry,
    sequence_mode: values.sequence_mode,
    inbox_ids: values.inbox_ids,
    from_email: values.from_email.trim() || null,
    from_name: values.from_name.trim() || null,
    sending_window: values.window_enabled ? { ...values.sending_window, days: WEEKDAYS.filter((day) => values.sending_window.days.includes(day)) } : null,
  };
}
