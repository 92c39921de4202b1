import { getContactTopicsOperation, setContactTopicsOperation } from "@/lib/api/operations/contact-topics";
import { route } from "@/lib/api/route";

export const GET = route(getContactTopicsOperation);
export const PUT = route(setContactTopicsOperation);
