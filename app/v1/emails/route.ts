import { listEmailsOperation, sendEmailOperation } from "@/lib/api/operations/emails";
import { route } from "@/lib/api/route";

export const GET = route(listEmailsOperation);
export const POST = route(sendEmailOperation);
