import { deleteSegmentOperation, getSegmentOperation, updateSegmentOperation } from "@/lib/api/operations/segments";
import { route } from "@/lib/api/route";

export const GET = route(getSegmentOperation);
export const PUT = route(updateSegmentOperation);
export const DELETE = route(deleteSegmentOperation);
