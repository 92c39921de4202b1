import { createFormOperation, listFormsOperation } from "@/lib/api/operations/forms";
import { route } from "@/lib/api/route";

export const POST = route(createFormOperation);
export const GET = route(listFormsOperation);
