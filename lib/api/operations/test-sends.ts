import { defineOperation } from "@/lib/api/operation";
import { sendBroadcastTest, sendTemplateTest } from "@/lib/services/test-sends";
import { sendBroadcastTestContract, sendTemplateTestContract } from "@/lib/contracts/test-sends";

export const sendBroadcastTestOperation = defineOperation({
  ...sendBroadcastTestContract,
  handler: (ctx, { params, body }) => sendBroadcastTest(ctx, params.id, body),
});

export const sendTemplateTestOperation = defineOperation({
  ...sendTemplateTestContract,
  handler: (ctx, { params, body }) => sendTemplateTest(ctx, params.id, body),
});

export const testSendOperations = [sendBroadcastTestOperation, sendTemplateTestOperation];
