import { checkEmailsOperation } from "@/lib/api/operations/contacts";
import { route } from "@/lib/api/route";

export const POST = route(checkEmailsOperation);
