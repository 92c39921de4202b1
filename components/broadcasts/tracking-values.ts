import type { Utm } from "@/lib/schemas/tracking";

/** A broadcast's or step's tracking as its form holds it: each UTM parameter a string, "" for none. */
export type TrackingValues = { track_opens: boolean; track_clicks: boolean; utm: { source: string; medium: string; campaign: string } };

export const trackingFieldNames = ["track_opens", "track_clicks", "utm"] as const;

export const defaultTracking: TrackingValues = { track_opens: true, track_clicks: true, utm: { source: "", medium: "", campaign: "" } };

export function toTrackingValues(record: { track_opens: boolean; track_clicks: boolean; utm: Utm | null }): TrackingValues {
  return {
    track_opens: record.track_opens,
    track_clicks: record.track_clicks,
    utm: { source: record.utm?.source ?? "", medium: record.utm?.medium ?? "", campaign: record.utm?.campaign ?? "" },
  };
}

/** The fields as the API takes them: empty parameters left out, none at all `null`. */
export function toTrackingBody(values: TrackingValues): { track_opens: boolean; track_clicks: boolean; utm: Utm | null } {
  const utm: Utm = {};
  for (const key of ["source", "medium", "campaign"] as const) if (values.utm[key].trim()) utm[key] = values.utm[key].trim();
  return { track_opens: values.track_opens, track_clicks: values.track_clicks, utm: Object.keys(utm).length ? utm : null };
}
