"use client";

import { X } from "lucide-react";
import { forwardRef, useSyncExternalStore, type InputHTMLAttributes } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";

const subscribe = () => () => {};
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
const serverZone = () => "";

/** The browser's time zone as "Europe/Berlin (GMT+1)", the zone a datetime-local value is read in. */
export function useTimeZoneLabel(): string {
  const zone = useSyncExternalStore(subscribe, browserZone, serverZone);
  if (!zone) return "your time zone";
  const offset = new Intl.DateTimeFormat("en", { timeZone: zone, timeZoneName: "shortOffset" })
    .formatToParts(new Date())
    .find((part) => part.type === "timeZoneName")?.value;
  return offset ? `${zone} (${offset})` : zone;
}

type ScheduleInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "value" | "onChange"> & {
  value: string;
  onChange: (value: string) => void;
};

/** A date and time in the user's time zone, with a button to clear it. */
export const ScheduleInput = forwardRef<HTMLInputElement, ScheduleInputProps>(function ScheduleInput({ value, onChange, disabled, ...props }, ref) {
  return (
    <div className="flex gap-2">
      <Input
        ref={ref}
        type="datetime-local"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        disabled={disabled}
        className="tabular-nums"
        {...props}
      />
      {value && !disabled && (
        <Button variant="ghost" size="icon" className="size-9" onClick={() => onChange("")} aria-label="Clear the schedule">
          <X aria-hidden />
        </Button>
      )}
    </div>
  );
});
