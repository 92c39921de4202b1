"use client";

import { useState } from "react";
import { SearchInput } from "@/components/ui/search-input";
import { useDebouncedValue } from "@/components/ui/use-debounced-value";
import { cn } from "@/lib/client/cn";
import { useContactSearch, type Contact } from "@/lib/client/resources/contacts";

/** Picks a contact of the audience by email, or none (every placeholder at its fallback). */
export function ContactPicker({
  segmentId,
  value,
  onChange,
  label = "Preview as",
}: {
  segmentId: string | null;
  value: Contact | null;
  onChange: (contact: Contact | null) => void;
  label?: string;
}) {
  const [search, setSearch] = useState("");
  const debounced = useDebouncedValue(search, 250);
  const results = useContactSearch(debounced, segmentId);
  const contacts = results.data?.contacts ?? [];
  return (
    <div className="flex flex-col gap-1.5">
      <SearchInput
        aria-label={`${label}: search contacts by email`}
        placeholder="Search contacts by email"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      <ul aria-label={`${label}: contacts`} className="flex max-h-40 flex-col gap-0.5 overflow-y-auto text-sm">
        <li>
          <button
            type="button"
            aria-pressed={value === null}
            onClick={() => onChange(null)}
            className={cn("w-full rounded px-2 py-1 text-left text-zinc-600 hover:bg-zinc-100", value === null && "bg-brand-50 text-brand-700")}
          >
            Nobody in particular (fallbacks)
          </button>
        </li>
        {contacts.map((contact) => (
          <li key={contact.id}>
            <button
              type="button"
              aria-pressed={value?.id === contact.id}
              onClick={() => onChange(contact)}
              className={cn("w-full truncate rounded px-2 py-1 text-left hover:bg-zinc-100", value?.id === contact.id && "bg-brand-50 text-brand-700")}
            >
              {contact.email}
              {(contact.first_name || contact.last_name) && (
                <span className="text-zinc-500"> · {[contact.first_name, contact.last_name].filter(Boolean).join(" ")}</span>
              )}
            </button>
          </li>
        ))}
        {results.isSuccess && contacts.length === 0 && <li className="px-2 py-1 text-zinc-500">No contact matches{segmentId ? " in the audience" : ""}.</li>}
      </ul>
    </div>
  );
}
