import { z } from "zod";
import { idParams } from "@/lib/schemas/common";
import { contactExport, listContactsQuery } from "@/lib/schemas/contacts";
import { defineContract } from "@/lib/contracts/contract";

const tag = "Contacts";

export const exportContactsContract = defineContract({
  method: "GET",
  path: "/v1/contacts/export",
  tag,
  summary: "Export contacts as CSV",
  description:
    "CSV of the contacts `GET /v1/contacts` would list for the same query, streamed. A cell starting with `= + - @`, a tab or CR gets a leading `'`. Two exports of an organization at a time (429).",
  auth: "member",
  query: listContactsQuery,
  mediaType: "text/csv",
  response: z.string(),
  errors: ["VALIDATION_ERROR"],
});

export const exportContactContract = defineContract({
  method: "GET",
  path: "/v1/contacts/{id}/export",
  tag,
  summary: "Export one contact's data",
  auth: "member",
  params: idParams,
  response: contactExport,
  errors: ["NOT_FOUND"],
});
