import { z } from "zod";
import { TopicSubscription } from "@/lib/generated/prisma/enums";
import { dateTime, id, limits, requiredText, text } from "./common";

const topicSubscription = z.enum(TopicSubscription).meta({
  description: "`opt_in`: a contact receives the topic's mail only after subscribing to it. `opt_out`: a contact receives it unless it unsubscribed from it.",
  id: "TopicSubscription",
});

const topicFields = z.object({
  name: requiredText(limits.name),
  description: text(limits.shortText).nullable(),
  default_subscription: topicSubscription,
});

export const createTopicInput = topicFields.partial({ description: true });
export type CreateTopicInput = z.infer<typeof createTopicInput>;

// Named: the create's body is these fields with name and default_subscription required (lib/openapi/schema-sharing.ts).
export const updateTopicInput = topicFields.partial().meta({ id: "TopicFields" });
export type UpdateTopicInput = z.infer<typeof updateTopicInput>;

export const topic = z.object({
  id,
  organization_id: id,
  name: z.string(),
  description: z.string().nullable(),
  default_subscription: topicSubscription,
  subscribers_count: z.number().int().meta({
    description: "Extension: contacts a broadcast to this topic would reach now (subscribed, not suppressed, receiving the topic).",
  }),
  created_at: dateTime,
  updated_at: dateTime,
});
topic.register(z.globalRegistry, { id: "Topic" });

const contactTopic = z
  .object({
    topic_id: id,
    name: z.string(),
    subscribed: z.boolean().meta({ description: "Whether the contact receives the topic's mail: its own choice, else the topic's default." }),
  })
  .meta({ id: "ContactTopic" });

export const contactTopics = z.array(contactTopic);

/** At most this many choices in one PUT: more topics than an organization would ever show on one page. */
export const MAX_TOPIC_CHOICES = 1000;

const contactTopicChoice = z.object({
  topic_id: id,
  subscribed: z.boolean(),
});

export const setContactTopicsInput = z
  .array(contactTopicChoice)
  .max(MAX_TOPIC_CHOICES)
  .meta({ description: "The contact's choices, as GET answers them (`name` is ignored); topics left out keep theirs." });
export type SetContactTopicsInput = z.infer<typeof setContactTopicsInput>;
