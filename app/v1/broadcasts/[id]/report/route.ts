import { getBroadcastReportOperation } from "@/lib/api/operations/reports";
import { route } from "@/lib/api/route";

export const GET = route(getBroadcastReportOperation);
