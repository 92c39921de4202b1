import { z } from "zod";
import { errorStatus, type ErrorCode } from "./error-codes";

const errorCodes = Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]];

/** The body of every error answer (lib/api/errors.ts writes it). */
export const apiError = z
  .object({
    error: z.string().meta({ description: "What went wrong, for people." }),
    code: z.enum(errorCodes),
    details: z.unknown().optional().meta({ description: "For VALIDATION_ERROR: a list of `{ path, message }`." }),
  })
  .meta({ id: "Error" });

/** The body of a 422 for invalid paging parameters, in the shape Resend answers it. */
export const paginationError = z
  .object({ name: z.literal("validation_error"), statusCode: z.literal(422), message: z.string() })
  .meta({ id: "PaginationError" });
