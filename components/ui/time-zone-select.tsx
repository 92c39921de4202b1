"use client";

import { forwardRef, useSyncExternalStore, type SelectHTMLAttributes } from "react";
import { NativeSelect, type SelectOption } from "./select";

let zones: string[] | null = null;

/** The browser's IANA zones (Intl), UTC first; the server renders none, so nothing differs at hydration. */
function browserZones(): string[] {
  zones ??= ["UTC", ...Intl.supportedValuesOf("timeZone").filter((zone) => zone !== "UTC")];
  return zones;
}
const subscribe = () => () => {};
const NO_ZONES: string[] = [];

/** "America/New_York" as "America / New York". */
const zoneLabel = (zone: string) => zone.replace(/_/g, " ").replace(/\//g, " / ");

type TimeZoneSelectProps = SelectHTMLAttributes<HTMLSelectElement> & {
  /** Choices before the zones, such as "" for the organization's or `contact`. */
  leading?: SelectOption[];
  /** The value held now: always offered, even where the browser does not know it. */
  current?: string;
};

/** A native select of IANA time zones, for react-hook-form's `register`. */
export const TimeZoneSelect = forwardRef<HTMLSelectElement, TimeZoneSelectProps>(function TimeZoneSelect({ leading = [], current, ...props }, ref) {
  const known = useSyncExternalStore(subscribe, browserZones, () => NO_ZONES);
  const listed = current && !leading.some((o) => o.value === current) && !known.includes(current) ? [current, ...known] : known;
  return <NativeSelect ref={ref} options={[...leading, ...listed.map((zone) => ({ value: zone, label: zoneLabel(zone) }))]} {...props} />;
});
