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
    "What to fix or know before sending: empty subject or content and links that do not lead to http(s) are errors; a missing " +
    "unsubscribe link in the content (a plain one is then added), images without alt text, no preview text, placeholders without a " +
    "fallback that some of the audience lack (counted in the database), HTML over 100 KB (Gmail clips at 102 KB) and a SpamAssassin " +
    "score at or over its threshold (local rules only; `skipped` where SpamAssassin is not installed) are warnings. `step_id`: a follow-up step's checks.",
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
