import type { Metadata } from "next";
import { Suspense } from "react";
import { UnifiedInbox } from "@/components/inbox/unified-inbox";

export const metadata: Metadata = { title: "Inbox" };

// The inbox reads its filters and open thread from the URL, which needs a Suspense boundary when prerendered.
export default function InboxPage() {
  return (
    <Suspense>
      <UnifiedInbox />
    </Suspense>
  );
}
