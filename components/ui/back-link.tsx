import { ArrowLeft } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";

/** "← Contacts": a PageHeader breadcrumb back to the list a screen belongs to. */
export function BackLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} className="inline-flex items-center gap-1 hover:text-zinc-800">
      <ArrowLeft className="size-3.5" aria-hidden />
      {children}
    </Link>
  );
}
