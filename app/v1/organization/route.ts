import { getOrganizationOperation, updateOrganizationOperation } from "@/lib/api/operations/organization";
import { route } from "@/lib/api/route";

export const GET = route(getOrganizationOperation);
export const PUT = route(updateOrganizationOperation);
