import { idParams } from "@/lib/schemas/common";
import { contactFields, emailPreview, presendChecks, previewQuery, stepQuery } from "@/lib/schemas/presend-checks";
import { defineContract } from "@/lib/contracts/contract";

export const broadcastChecksContract = defineContract({
  method: "GET",
  path: "/v1/broadcasts/{id}/checks",
  operationId: "getBroadcastChecks",
  tag: "Broadcasts",
  summary: "Run the pre-send checks of a broadcast",
  description:
    "What to fix before sending (errors: empty subject or content, non-http(s) links) or know (warnings: no unsubscribe link, images without alt text, no preview text, placeholders without fallback some recipients lack, HTML over 100 KB, a SpamAssassin score at its threshold). `step_id`: a step's checks.",
  auth: "member",
  params: idParams,
  query: stepQuery,
  response: presendChecks,
  errors: ["VALIDATION_ERROR", "NOT_FOUND"],
});

export const broadcastPreviewContract = defineContract({
  method: "GET",
  path: "/v1/broadcasts/{id}/preview",
  operationId: "previewBroadcast",
  tag: "Broadcasts",
  summary: "Preview a broadcast or one of its steps as a contact",
  auth: "member",
  params: idParams,
  query: previewQuery,
  response: emailPreview,
  errors: ["VALIDATION_ERROR", "NOT_FOUND"],
});

export const contactFieldsContract = defineContract({
  method: "GET",
  path: "/v1/contact-fields",
  tag: "Contacts",
  summary: "List the fields placeholders can name",
  description: "The contact's own fields and the metadata keys present on the organization's contacts, for a `{{placeholder}}` menu.",
  auth: "member",
  response: contactFields,
});
