import Link from "next/link";
import type { HTMLAttributes, TdHTMLAttributes, ThHTMLAttributes } from "react";
import { cn } from "@/lib/client/cn";

/** A table that scrolls sideways on narrow screens instead of breaking the layout. */
export function Table({ className, ...props }: HTMLAttributes<HTMLTableElement>) {
  return (
    <div className="w-full overflow-x-auto">
      <table className={cn("w-full border-collapse text-left text-sm", className)} {...props} />
    </div>
  );
}

export function TableHead({ className, ...props }: HTMLAttributes<HTMLTableSectionElement>) {
  return <thead className={cn("border-b border-zinc-200 bg-zinc-50/70", className)} {...props} />;
}

export function TableBody({ className, ...props }: HTMLAttributes<HTMLTableSectionElement>) {
  return <tbody className={cn("divide-y divide-zinc-100", className)} {...props} />;
}

export function TableRow({ className, ...props }: HTMLAttributes<HTMLTableRowElement>) {
  return <tr className={cn("transition-colors hover:bg-zinc-50/70", className)} {...props} />;
}

export function TableHeaderCell({ className, ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope="col" className={cn("h-9 px-4 text-xs font-medium whitespace-nowrap text-zinc-500 first:pl-5 last:pr-5", className)} {...props} />;
}

export function TableCell({ className, ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={cn("px-4 py-3 align-middle text-zinc-700 first:pl-5 last:pr-5", className)} {...props} />;
}

/** A row's first cell: its name, linking to the record, over a line of detail; both cut short to the cell. */
export function TableTitleCell({ href, title, detail, className }: { href: string; title: string; detail: string; className?: string }) {
  return (
    <TableCell className={className}>
      <Link href={href} className="block truncate font-medium text-zinc-900 hover:text-brand-700 hover:underline">
        {title}
      </Link>
      <p className="truncate text-xs text-zinc-500">{detail}</p>
    </TableCell>
  );
}

/** The header of a column of row buttons: named for screen readers, blank on screen. */
export function TableActionsHeaderCell({ className }: { className?: string }) {
  return (
    <TableHeaderCell className={className}>
      <span className="sr-only">Actions</span>
    </TableHeaderCell>
  );
}
