import type { AnyOperation } from "@/lib/api/operation";

export const broadcastsOperations: AnyOperation[] = [];
