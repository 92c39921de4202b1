"use client";

import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import type { template } from "@/lib/schemas/templates";
import { fetchAllPages } from "./fetch-all-pages";

export type Template = z.infer<typeof template>;

export const templatesKey = ["templates"] as const;

/** Every template of the organization, for pickers (broadcasts, steps, the email filter). */
export function useAllTemplates() {
  return useQuery({ queryKey: [...templatesKey, "all"], queryFn: () => fetchAllPages<Template>("/v1/templates") });
}
