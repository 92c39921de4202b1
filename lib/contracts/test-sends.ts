import { idParams } from "@/lib/schemas/common";
import { testSendInput, testSendResult } from "@/lib/schemas/test-sends";
import { defineContract } from "@/lib/contracts/contract";

export const sendBroadcastTestContract = defineContract({
  method: "POST",
  path: "/v1/broadcasts/{id}/test",
  operationId: "sendBroadcastTest",
  tag: "Broadcasts",
  summary: "Send a test of a broadcast",
  description: "Sends the broadcast as it is now, with its UTM parameters (no pixel or redirects).",
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
  description: "Sends the template as a broadcast would (with its unsubscribe footer).",
  auth: "member",
  params: idParams,
  body: testSendInput,
  response: testSendResult,
  maxBodyBytes: 16 * 1024,
  errors: ["VALIDATION_ERROR", "NOT_FOUND", "DOMAIN_NOT_VERIFIED", "INBOX_NOT_VERIFIED", "RATE_LIMITED", "MAIL_DELIVERY_FAILED"],
});
