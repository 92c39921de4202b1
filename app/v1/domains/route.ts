import { createDomainOperation, listDomainsOperation } from "@/lib/api/operations/domains";
import { route } from "@/lib/api/route";

export const POST = route(createDomainOperation);
export const GET = route(listDomainsOperation);
