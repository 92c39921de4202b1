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
    "Needs the admin or owner role. Fields left out keep their value. Turning `tracking_enabled` off stops the open pixel and link rewriting for emails sent from then on; links in emails already sent still lead to their destinations, but their opens and clicks are no longer recorded. Turning it back on adds both to emails sent from then on and records again what the earlier tracked emails report.",
  auth: "admin",
  body: updateOrganizationInput,
  response: organization,
  errors: ["FORBIDDEN"],
});
