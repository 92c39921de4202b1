import { z } from "zod";
import { CONTACT_TIME_ZONE, WEEKDAYS } from "@/lib/domain/sending-window";
import { canonicalTimeZone } from "@/lib/domain/time-zones";

/** An IANA zone, stored under its canonical name ("us/eastern" is kept as "America/New_York"). */
export const timeZone = z
  .string()
  .max(64)
  .refine((value) => canonicalTimeZone(value) !== null, "must be an IANA time zone, such as Europe/Berlin")
  .overwrite((value) => canonicalTimeZone(value) ?? value)
  .meta({ id: "TimeZone", description: "An IANA time zone name, such as `Europe/Berlin` or `America/New_York`; stored under its canonical name." });

const clockTime = (what: string, max: string) =>
  z
    .string()
    .regex(/^([01]\d|2[0-4]):[0-5]\d$/, "must be a time as HH:MM")
    .refine((value) => value <= max, `must be at most ${max}`)
    .meta({ description: `${what}, as HH:MM in the window's time zone (up to ${max}).` });

export const sendingWindow = z
  .object({
    days: z
      .array(z.enum(WEEKDAYS))
      .min(1)
      .max(7)
      .refine((days) => new Set(days).size === days.length, "must not name a day twice")
      .meta({ description: "The days emails may go out: `mon` … `sun`." }),
    start: clockTime("When the window opens", "23:59"),
    end: clockTime("When it closes (an email is not started at or after it)", "24:00"),
    timezone: z
      .union([z.literal(CONTACT_TIME_ZONE), timeZone])
      .meta({ description: "An IANA zone, or `contact`: each recipient's own `timezone`, else the organization's." }),
  })
  .refine((window) => window.start < window.end, { path: ["end"], message: "must be after start" })
  .meta({
    id: "SendingWindow",
    description:
      "When emails may go out. An email due outside the window waits for its next opening (the broadcast's status says how many wait and until when). Business-day delays count Monday to Friday in the same zone.",
  });
