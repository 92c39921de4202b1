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
    "Something a contact did in your application (`purchase`, `signed_up`, …), for automations, segment filters and the contact's " +
    "timeline. Give exactly one of `email` and `contact_id`; an unknown `email` creates the contact, subscribed. A `contact_id` " +
    "that is not a contact of this organization is 404.",
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
  description:
    "1 to 1 000 events, each as `POST /v1/events` takes it. The whole batch is validated first: one invalid event makes the " +
    "request 400 with its index in `details` (`events.3.name`), and nothing is recorded; so does a `contact_id` of no contact " +
    "of this organization (404, its index in `details`).",
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
