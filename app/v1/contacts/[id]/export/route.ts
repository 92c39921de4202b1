import { exportContactOperation } from "@/lib/api/operations/contact-data";
import { route } from "@/lib/api/route";

export const GET = route(exportContactOperation);
