import { idParams } from "@/lib/schemas/common";
import { contactEvent, customEventBatchInput, customEventInput, recordedEvent, recordedEvents } from "@/lib/schemas/events";
import { cursorQuery, listEnvelope } from "@/lib/schemas/pagination";
import { defineContract } from "@/lib/contracts/contract";

const tag = "Events";

export const recordEventContract = defineContract({
  method: "POST",
  path: "/v1/events",
  tag,
  summary: "Record a custom event",
  description:
    "Something a contact did in your application (`purchase`, `signed_up`), for automations, filters and the timeline. Give one of `email` (an unknown one creates the contact, subscribed) and `contact_id` (404 when not a contact of the organization).",
  auth: "member",
  body: customEventInput,
  status: 202,
  response: recordedEvent,
  errors: ["NOT_FOUND"],
});

export const recordEventBatchContract = defineContract({
  method: "POST",
  path: "/v1/events/batch",
  tag,
  summary: "Record custom events in a batch",
  description: "Events as `POST /v1/events` takes them, all or none: an invalid event is 400, an unknown `contact_id` 404, each with its index in `details`.",
  auth: "member",
  body: customEventBatchInput,
  maxBodyBytes: 16 * 1024 * 1024,
  status: 202,
  response: recordedEvents,
  errors: ["NOT_FOUND"],
});

export const listContactEventsContract = defineContract({
  method: "GET",
  path: "/v1/contacts/{id}/events",
  tag,
  summary: "List a contact's events",
  description: "Built-in and custom events, newest first (by `occurred_at`), cursor-paginated (default 20 a page).",
  auth: "member",
  params: idParams,
  pageQuery: cursorQuery,
  response: listEnvelope(contactEvent),
  errors: ["NOT_FOUND"],
});
