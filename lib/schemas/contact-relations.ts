import { z } from "zod";
import { dateTime, id } from "./common";

export const contactSegment = z.object({
  id,
  name: z.string(),
  dynamic: z.boolean().meta({ description: "A dynamic segment: the contact is in it because it matches the segment's filter now." }),
  added_at: dateTime.nullable().meta({ description: "When the contact was added to a static segment; null for a dynamic one." }),
});
contactSegment.register(z.globalRegistry, { id: "ContactSegment" });

export const contactSegments = z.object({ object: z.literal("list"), has_more: z.boolean(), data: z.array(contactSegment) });
