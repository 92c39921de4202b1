import { listMediaOperation, uploadMediaOperation } from "@/lib/api/operations/media";
import { route } from "@/lib/api/route";

export const POST = route(uploadMediaOperation);
export const GET = route(listMediaOperation);
