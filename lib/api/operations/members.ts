import type { AnyOperation } from "@/lib/api/operation";

export const membersOperations: AnyOperation[] = [];
