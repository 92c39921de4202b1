"use client";

import { useMemo } from "react";
import { useBroadcastOptions } from "@/lib/client/resources/broadcasts";
import { useContactFields } from "@/lib/client/resources/contacts";
import { useContactProperties } from "@/lib/client/resources/contact-properties";
import { useSegments } from "@/lib/client/resources/segments";
import { fieldChoices } from "./filter-model";
import type { BuilderOptions } from "./filter-builder";

/**
 * What the filter builder offers: fields (the contact's own, typed properties, the other metadata
 * keys contacts carry), segments to include (not the one being edited) and broadcasts. Each list
 * loads on its own; the builder works with whatever has arrived.
 */
export function useBuilderOptions(excludeSegmentId?: string) {
  const properties = useContactProperties();
  const contactFields = useContactFields();
  const segments = useSegments();
  const broadcasts = useBroadcastOptions();
  const options: Omit<BuilderOptions, "problems" | "incomplete"> = useMemo(
    () => ({
      fields: fieldChoices(
        properties.data ?? [],
        (contactFields.data?.metadata_keys ?? []).map((k) => k.key),
      ),
      segments: (segments.data ?? []).filter((s) => s.id !== excludeSegmentId).map((s) => ({ value: s.id, label: s.name })),
      broadcasts: (broadcasts.data ?? []).map((b) => ({ value: b.id, label: b.name })),
    }),
    [properties.data, contactFields.data, segments.data, broadcasts.data, excludeSegmentId],
  );
  return { options, loading: properties.isPending };
}
