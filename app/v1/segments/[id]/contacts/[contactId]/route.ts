import { removeSegmentContactOperation } from "@/lib/api/operations/segments";
import { route } from "@/lib/api/route";

export const DELETE = route(removeSegmentContactOperation);
