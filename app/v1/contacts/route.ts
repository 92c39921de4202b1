import { createContactOperation, listContactsOperation } from "@/lib/api/operations/contacts";
import { route } from "@/lib/api/route";

export const GET = route(listContactsOperation);
export const POST = route(createContactOperation);
