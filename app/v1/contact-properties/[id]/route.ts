import { deleteContactPropertyOperation } from "@/lib/api/operations/contact-properties";
import { route } from "@/lib/api/route";

export const DELETE = route(deleteContactPropertyOperation);
