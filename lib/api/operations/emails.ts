import type { AnyOperation } from "@/lib/api/operation";

export const emailsOperations: AnyOperation[] = [];
