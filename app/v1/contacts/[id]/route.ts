import { deleteContactOperation, getContactOperation, updateContactOperation } from "@/lib/api/operations/contacts";
import { route } from "@/lib/api/route";

export const GET = route(getContactOperation);
export const PUT = route(updateContactOperation);
export const DELETE = route(deleteContactOperation);
