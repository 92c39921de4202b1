import { createContactPropertyOperation, listContactPropertiesOperation } from "@/lib/api/operations/contact-properties";
import { route } from "@/lib/api/route";

export const GET = route(listContactPropertiesOperation);
export const POST = route(createContactPropertyOperation);
