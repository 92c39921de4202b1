import Link from "next/link";
import { cn } from "@/lib/client/cn";

export function Logo({ className, href = "/" }: { className?: string; href?: string }) {
  return (
    <Link
      href={href}
      className={cn(
        "flex items-center gap-2 rounded-md font-semibold tracking-tight text-zinc-900 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none",
        className,
      )}
    >
      <span className="flex size-7 items-center justify-center rounded-lg bg-brand-600 text-white shadow-sm">
        <svg
          viewBox="0 0 24 24"
          className="size-4"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.2"
          strokeLinecap="round"
          strokeLinejoin="round"
          aria-hidden
        >
          <path d="M4 7l8 6 8-6" />
          <rect x="3" y="5" width="18" height="14" rx="2.5" />
        </svg>
      </span>
      <span className="text-[15px]">Mailplatform</span>
    </Link>
  );
}
