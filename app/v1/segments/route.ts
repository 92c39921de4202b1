import { createSegmentOperation, listSegmentsOperation } from "@/lib/api/operations/segments";
import { route } from "@/lib/api/route";

export const GET = route(listSegmentsOperation);
export const POST = route(createSegmentOperation);
