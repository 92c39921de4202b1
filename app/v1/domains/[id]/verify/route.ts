import { verifyDomainOperation } from "@/lib/api/operations/domains";
import { route } from "@/lib/api/route";

export const POST = route(verifyDomainOperation);
