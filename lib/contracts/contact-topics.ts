import { idParams } from "@/lib/schemas/common";
import { contactTopics, setContactTopicsInput } from "@/lib/schemas/topics";
import { defineContract } from "@/lib/contracts/contract";

const tag = "Topics";

export const getContactTopicsContract = defineContract({
  method: "GET",
  path: "/v1/contacts/{id}/topics",
  tag,
  summary: "List a contact's topics",
  description: "Every topic of the organization (at most 1 000) and whether the contact receives its mail: its own choice, else the topic's default.",
  auth: "member",
  params: idParams,
  response: contactTopics,
  errors: ["NOT_FOUND"],
});

export const setContactTopicsContract = defineContract({
  method: "PUT",
  path: "/v1/contacts/{id}/topics",
  tag,
  summary: "Change a contact's topics",
  description:
    "Takes the list GET answers (`name` ignored) and records each choice as an event of the contact; topics left out keep theirs. A topic named twice or not of the organization is 400 naming the entry. Answers the whole list.",
  auth: "member",
  params: idParams,
  body: setContactTopicsInput,
  response: contactTopics,
  errors: ["VALIDATION_ERROR", "NOT_FOUND"],
});
