import { previewSegmentOperation } from "@/lib/api/operations/segments";
import { route } from "@/lib/api/route";

export const POST = route(previewSegmentOperation);
