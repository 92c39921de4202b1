import type { Metadata } from "next";
import { Suspense } from "react";
import { ContactsList } from "@/components/contacts/contacts-list";

export const metadata: Metadata = { title: "Contacts" };

export default function ContactsPage() {
  // The list reads ?segment_id= from the URL, which needs a Suspense boundary when prerendered.
  return (
    <Suspense>
      <ContactsList />
    </Suspense>
  );
}
