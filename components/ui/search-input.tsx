import { Search } from "lucide-react";
import type { InputHTMLAttributes } from "react";
import { cn } from "@/lib/client/cn";
import { Input } from "./input";

/** A search box with a magnifier at its left; `className` sizes the box within its row. */
export function SearchInput({ className, ...props }: Omit<InputHTMLAttributes<HTMLInputElement>, "type">) {
  return (
    <div className={cn("relative", className)}>
      <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-zinc-400" aria-hidden />
      <Input type="search" className="pl-9" {...props} />
    </div>
  );
}
