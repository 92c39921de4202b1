import { AppError } from "@/lib/domain/errors";
import { errorResponse } from "@/lib/api/errors";

/** Any method on a /v1 path no operation serves: the API's own 404 body, not the dashboard's HTML page. */
export async function unknownPath(): Promise<Response> {
  return errorResponse(new AppError("NOT_FOUND", "No API operation at this path; see /v1/openapi.json"));
}
