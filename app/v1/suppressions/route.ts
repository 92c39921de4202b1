import { addSuppressionsOperation, listSuppressionsOperation } from "@/lib/api/operations/suppressions";
import { route } from "@/lib/api/route";

export const GET = route(listSuppressionsOperation);
export const POST = route(addSuppressionsOperation);
