import { broadcastPreviewOperation } from "@/lib/api/operations/presend-checks";
import { route } from "@/lib/api/route";

export const GET = route(broadcastPreviewOperation);
