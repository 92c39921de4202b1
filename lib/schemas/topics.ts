import { z } from "zod";
import { TopicSubscription } from "@/lib/generated/prisma/enums";
import { dateTime, id, limits, requiredText, text } from "./common";

const topicSubscription = z
  .enum(TopicSubscription)
  .meta({ description: "`opt_in`: contacts receive the topic only after subscribing to it. `opt_out`: until they unsubscribe." });

const topicFields = z.object({
  name: requiredText(limits.name),
  description: text(limits.shortText).nullable(),
  default_subscription: topicSubscription,
});

export const createTopicInput = topicFields.partial({ description: true });
export type CreateTopicInput = z.infer<typeof createTopicInput>;

export const updateTopicInput = topicFields.partial();
export type UpdateTopicInput = z.infer<typeof updateTopicInput>;

export const topic = z.object({
  id,
  organization_id: id,
  name: z.string(),
  description: z.string().nullable(),
  default_subscription: topicSubscription,
  created_at: dateTime,
  updated_at: dateTime,
});
topic.register(z.globalRegistry, { id: "Topic" });
