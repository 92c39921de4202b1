import { z } from "zod";

/** `limit`, `after` and `before` as the specification documents them (for the OpenAPI document). */
export const cursorQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).optional().meta({ description: "Page size, 1 to 100." }),
  after: z.string().optional().meta({ description: "Id of the last item of the current page: the next, older page." }),
  before: z.string().optional().meta({ description: "Id of the first item of the current page: the previous, newer page." }),
});

export type CursorParams = { limit?: number; after?: string; before?: string };

export type ListEnvelope<T> = { object: "list"; has_more: boolean; data: T[] };

export const listEnvelope = <T extends z.ZodType>(item: T) => z.object({ object: z.literal("list"), has_more: z.boolean(), data: z.array(item) });
