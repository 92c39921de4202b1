import type { Metadata } from "next";
import { Suspense } from "react";
import { EmailsList } from "@/components/emails/emails-list";
import { emailFiltersFromUrl, emailPageQuery } from "@/components/emails/email-query";
import { pageRows } from "@/lib/api/page-rows";
import { listEmailsContract } from "@/lib/contracts/emails";
import { emailListRow } from "@/lib/schemas/emails";
import { listEmailRows } from "@/lib/services/emails";

export const metadata: Metadata = { title: "Emails" };

// The props typed here, not by the generated PageProps: CI type-checks before any build has generated it.
export default async function EmailsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const search = await searchParams;
  // The list's first page as the list will ask for it (its filters start from the URL), read with the page.
  const query = emailPageQuery(
    emailFiltersFromUrl((name) => {
      const value = search[name];
      return typeof value === "string" ? value : undefined;
    }),
    1,
  );
  const first = await pageRows(listEmailsContract, query, emailListRow.array(), (ctx, filters) =>
    listEmailRows(ctx, filters, { page: query.page, limit: query.limit }),
  );
  // The list reads its initial filters from the URL, which needs a Suspense boundary when prerendered.
  return (
    <Suspense>
      <EmailsList first={first} />
    </Suspense>
  );
}
