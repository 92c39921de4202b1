import { createStepOperation, listStepsOperation } from "@/lib/api/operations/broadcasts";
import { route } from "@/lib/api/route";

export const POST = route(createStepOperation);
export const GET = route(listStepsOperation);
