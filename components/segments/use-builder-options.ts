"use client";

import { useMemo, useState } from "react";
import { useBroadcastOptions } from "@/lib/client/resources/broadcasts";
import { useContactFields } from "@/lib/client/resources/contacts";
import { useContactProperties } from "@/lib/client/resources/contact-properties";
import { useSegments } from "@/lib/client/resources/segments";
import type { Filter } from "@/lib/schemas/filter-language";
import { fieldChoices, fromFilter, newFieldCondition, toFilter, type GroupDraft } from "./filter-model";
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

/**
 * A filter being edited in a dialog (the contacts list's advanced filter, an email block's
 * condition): the builder's draft from `value`, or one empty condition, and what it translates to.
 */
export function useFilterDraft(value: Filter | null) {
  const { options } = useBuilderOptions();
  const [root, setRoot] = useState<GroupDraft>(() => {
    const start = fromFilter(value);
    return start.children.length ? start : { ...start, children: [newFieldCondition()] };
  });
  const [tried, setTried] = useState(false);
  const translation = useMemo(() => toFilter(root, options.fields), [root, options.fields]);
  return { options, root, setRoot, tried, setTried, translation };
}
