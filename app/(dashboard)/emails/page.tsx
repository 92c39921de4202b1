import type { Metadata } from "next";
import { Suspense } from "react";
import { EmailsList } from "@/components/emails/emails-list";

export const metadata: Metadata = { title: "Emails" };

export default function EmailsPage() {
  // The list reads its initial filters from the URL, which needs a Suspense boundary when prerendered.
  return (
    <Suspense>
      <EmailsList />
    </Suspense>
  );
}
