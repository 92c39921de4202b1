"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";

/** Events a timeline page holds. */
const TIMELINE_PAGE = 25;
/** The contact's emails the page reads: the latest are listed, and all of them name the timeline's emails. */
const CONTACT_EMAILS = 100;

export function useContact(id: string) {
  return useQuery({ queryKey: queryKeys.contacts.detail(id), queryFn: () => apiCall("GET /v1/contacts/{id}", { params: { id } }) });
}

/** The contact's events, newest first, a page at a time ("Show older events" asks for the next). */
export function useContactEvents(id: string) {
  return useInfiniteQuery({
    queryKey: queryKeys.contacts.events(id),
    queryFn: ({ pageParam, signal }) => apiCall("GET /v1/contacts/{id}/events", { params: { id }, query: { limit: TIMELINE_PAGE, after: pageParam }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => (page.has_more ? page.data[page.data.length - 1].id : undefined),
  });
}

export function useContactSegments(id: string) {
  return useQuery({ queryKey: queryKeys.contacts.segments(id), queryFn: () => apiCall("GET /v1/contacts/{id}/segments", { params: { id } }) });
}

export function useContactTopics(id: string) {
  return useQuery({ queryKey: queryKeys.contacts.topics(id), queryFn: () => apiCall("GET /v1/contacts/{id}/topics", { params: { id } }) });
}

/** The contact's latest emails (GET /v1/emails?contact_id=), newest first. */
export function useContactEmails(id: string) {
  const query = { contact_id: id, page: 1, limit: CONTACT_EMAILS };
  return useQuery({ queryKey: queryKeys.emails.page(query), queryFn: ({ signal }) => apiCall("GET /v1/emails", { query, signal }) });
}
