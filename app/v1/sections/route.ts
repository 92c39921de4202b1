import { createSectionOperation, listSectionsOperation } from "@/lib/api/operations/sections";
import { route } from "@/lib/api/route";

export const POST = route(createSectionOperation);
export const GET = route(listSectionsOperation);
