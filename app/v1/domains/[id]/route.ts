import { deleteDomainOperation, getDomainOperation, updateDomainOperation } from "@/lib/api/operations/domains";
import { route } from "@/lib/api/route";

export const GET = route(getDomainOperation);
export const PUT = route(updateDomainOperation);
export const DELETE = route(deleteDomainOperation);
