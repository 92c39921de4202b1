import { deleteDomainOperation, getDomainOperation } from "@/lib/api/operations/domains";
import { route } from "@/lib/api/route";

export const GET = route(getDomainOperation);
export const DELETE = route(deleteDomainOperation);
