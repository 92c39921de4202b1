import { organization, updateOrganizationInput } from "@/lib/schemas/organizations";
import { defineContract } from "@/lib/contracts/contract";

const tag = "Organization";

export const getOrganizationContract = defineContract({
  method: "GET",
  path: "/v1/organization",
  tag,
  summary: "Get the organization",
  description: "The organization of the credential, with the caller's role in it.",
  auth: "member",
  response: organization,
});

export const updateOrganizationContract = defineContract({
  method: "PUT",
  path: "/v1/organization",
  tag,
  summary: "Update the organization",
  description:
    "Fields left out keep their value. With `tracking_enabled` off, emails sent from then on carry no pixel or redirects, and earlier ones' opens and clicks are not recorded (their links still work) until it is on again.",
  auth: "admin",
  body: updateOrganizationInput,
  response: organization,
  errors: ["FORBIDDEN"],
});
