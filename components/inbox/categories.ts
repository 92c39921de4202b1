import type { BadgeTone } from "@/components/ui/badge";
import type { ThreadCategory } from "@/lib/client/resources/threads";

/** Every category in the order the filter and the thread's menu list them, with its label and colour. */
export const CATEGORIES: { value: ThreadCategory; label: string; tone: BadgeTone }[] = [
  { value: "needs_reply", label: "Needs reply", tone: "warning" },
  { value: "interested", label: "Interested", tone: "success" },
  { value: "meeting", label: "Meeting", tone: "brand" },
  { value: "not_interested", label: "Not interested", tone: "neutral" },
  { value: "out_of_office", label: "Out of office", tone: "info" },
  { value: "unsubscribe", label: "Unsubscribe", tone: "danger" },
  { value: "bounce", label: "Bounce", tone: "danger" },
  { value: "done", label: "Done", tone: "neutral" },
];

export const categoryOf = (value: ThreadCategory) => CATEGORIES.find((c) => c.value === value) ?? CATEGORIES[0];
