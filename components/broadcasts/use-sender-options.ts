"use client";

import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { apiFetch, type ListEnvelope } from "@/lib/client/api";
import type { inbox } from "@/lib/schemas/inboxes";
import type { topic } from "@/lib/schemas/topics";
import { fetchAllPages } from "@/components/templates/fetch-all-pages";

export type Inbox = z.infer<typeof inbox>;
export type Topic = z.infer<typeof topic>;

export function useInboxes() {
  return useQuery({
    queryKey: ["inboxes"],
    queryFn: async () => (await apiFetch<ListEnvelope<Inbox>>("/v1/inboxes")).data,
  });
}

export function useTopics() {
  return useQuery({ queryKey: ["topics", "all"], queryFn: () => fetchAllPages<Topic>("/v1/topics") });
}
