import type { Metadata } from "next";
import { Suspense } from "react";
import { ContactsList } from "@/components/contacts/contacts-list";
import { CONTACTS_PAGE_SIZE, contactPageQuery } from "@/components/contacts/contact-query";
import { pageRows } from "@/lib/api/page-rows";
import { listContactsContract } from "@/lib/contracts/contacts";
import { contactList } from "@/lib/schemas/contacts";
import { listContactRows } from "@/lib/services/contacts-list";

export const metadata: Metadata = { title: "Contacts" };

// The props typed here, not by the generated PageProps: CI type-checks before any build has generated it.
export default async function ContactsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { segment_id } = await searchParams;
  // The list's first page as the list will ask for it (its filters start from the URL), read with the page.
  const query = contactPageQuery(
    { search: "", subscribed: "", tags: [], segment_id: typeof segment_id === "string" ? segment_id : "", filter: "" },
    CONTACTS_PAGE_SIZE,
    0,
  );
  const first = await pageRows(listContactsContract, query, contactList.shape.contacts, (ctx, filters) =>
    listContactRows(ctx, filters, { limit: query.limit, offset: query.offset }),
  );
  // The list reads ?segment_id= from the URL, which needs a Suspense boundary when prerendered.
  return (
    <Suspense>
      <ContactsList first={first} />
    </Suspense>
  );
}
