import { z } from "zod";
import { emailAddress, id } from "./common";

/** A test goes to the people reviewing it, never to a list. */
export const MAX_TEST_RECIPIENTS = 5;

export const testSendInput = z.object({
  emails: z
    .array(emailAddress)
    .min(1)
    .max(MAX_TEST_RECIPIENTS)
    .meta({ description: `1 to ${MAX_TEST_RECIPIENTS} addresses that receive the test.` }),
  contact_id: id.optional().meta({
    description:
      "Render as this contact of the organization would get it. Without it, every placeholder shows its fallback and every conditional block is shown.",
  }),
  step_id: id.optional().meta({ description: "Broadcasts only: test this follow-up step instead of the first email." }),
});
testSendInput.register(z.globalRegistry, {
  id: "TestSendInput",
  description:
    "A test is rendered as `contact_id` or with every placeholder's fallback, from the sender a real send would use, `[Test]` before the " +
    "subject, and recorded nowhere. Each address counts against the organization's hourly test emails (TEST_SENDS_PER_HOUR, 50 by default; " +
    "then 429); an SMTP refusal is 502.",
});
export type TestSendInput = z.infer<typeof testSendInput>;

export const testSendResult = z.object({
  subject: z.string().meta({ description: "The subject as sent, `[Test]` first." }),
  from: z.string(),
  contact_id: id.nullable().meta({ description: "The contact the test was rendered as, or null for the fallbacks." }),
  sent: z.array(z.object({ email: z.string(), message_id: z.string() })),
  remaining_this_hour: z.number().int().meta({ description: "Test emails the organization may still send in this clock hour." }),
});
testSendResult.register(z.globalRegistry, { id: "TestSendResult" });
