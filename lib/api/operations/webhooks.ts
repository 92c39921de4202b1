import type { AnyOperation } from "@/lib/api/operation";

export const webhooksOperations: AnyOperation[] = [];
