import { listContactSegmentsOperation } from "@/lib/api/operations/contact-relations";
import { route } from "@/lib/api/route";

export const GET = route(listContactSegmentsOperation);
