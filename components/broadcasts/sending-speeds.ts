import type { SelectOption } from "@/components/ui/select";

/** Each sending speed with one line on what it does; the order is slowest-to-fastest after auto. */
export const sendingSpeedOptions: SelectOption[] = [
  { value: "auto", label: "Auto", description: "Paces each inbox by its daily limit and warm-up state. Recommended." },
  { value: "warmup", label: "Warm-up", description: "A small, slowly growing daily volume for new inboxes and domains." },
  { value: "very_slow", label: "Very slow", description: "A few emails an hour with random gaps; closest to hand-sent mail." },
  { value: "slow", label: "Slow", description: "Spread over the day, well below inbox limits." },
  { value: "normal", label: "Normal", description: "A steady pace up to each inbox's daily limit." },
  { value: "instant", label: "Instant", description: "As fast as possible. For opted-in newsletters from a warmed-up domain." },
];
