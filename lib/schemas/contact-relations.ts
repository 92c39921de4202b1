import { z } from "zod";
import { dateTime, id } from "./common";

export const contactSegment = z.object({
  id,
  name: z.string(),
  added_at: dateTime.meta({ description: "When the contact joined the segment." }),
});

export const contactSegments = z.object({ object: z.literal("list"), has_more: z.boolean(), data: z.array(contactSegment) });

export const contactTopic = z.object({
  topic_id: id,
  name: z.string(),
  subscribed: z.boolean().meta({ description: "Whether the contact receives the topic's mail: its own choice, else the topic's default." }),
});

export const contactTopics = z.array(contactTopic);
