import { idParams } from "@/lib/schemas/common";
import { testSendInput, testSendResult } from "@/lib/schemas/test-sends";
import { defineContract } from "@/lib/contracts/contract";

const rules =
  "Rendered as `contact_id` (a contact of the organization, otherwise 400) or with every placeholder's fallback, from the sender a real " +
  "send would use (a verified inbox, or the relay from a verified domain: otherwise 400 INBOX_NOT_VERIFIED or DOMAIN_NOT_VERIFIED), with `[Test]` before the subject. " +
  "Nothing is recorded: no email, thread or event, and no counter moves. Each address counts against the organization's hourly " +
  "allowance of test emails (TEST_SENDS_PER_HOUR, 50 by default); past it, 429 RATE_LIMITED with Retry-After. An SMTP refusal is 502 MAIL_DELIVERY_FAILED.";

export const sendBroadcastTestContract = defineContract({
  method: "POST",
  path: "/v1/broadcasts/{id}/test",
  operationId: "sendBroadcastTest",
  tag: "Broadcasts",
  summary: "Send a test of a broadcast",
  description: `Sends the broadcast as it is now to 1–5 addresses, its UTM parameters on the links (no pixel or redirects). ${rules}`,
  auth: "member",
  params: idParams,
  body: testSendInput,
  response: testSendResult,
  maxBodyBytes: 16 * 1024,
  errors: ["VALIDATION_ERROR", "NOT_FOUND", "DOMAIN_NOT_VERIFIED", "INBOX_NOT_VERIFIED", "RATE_LIMITED", "MAIL_DELIVERY_FAILED"],
});

export const sendTemplateTestContract = defineContract({
  method: "POST",
  path: "/v1/templates/{id}/test",
  operationId: "sendTemplateTest",
  tag: "Templates",
  summary: "Send a test of a template",
  description: `Sends the template to 1–5 addresses, as a broadcast would (with its unsubscribe footer). ${rules}`,
  auth: "member",
  params: idParams,
  body: testSendInput,
  response: testSendResult,
  maxBodyBytes: 16 * 1024,
  errors: ["VALIDATION_ERROR", "NOT_FOUND", "DOMAIN_NOT_VERIFIED", "INBOX_NOT_VERIFIED", "RATE_LIMITED", "MAIL_DELIVERY_FAILED"],
});
