import { forwardRef, type InputHTMLAttributes } from "react";
import { cn } from "@/lib/client/cn";

/** Shared look of text-like controls; aria-invalid turns the border red. */
export const controlClasses =
  "w-full rounded-md border border-zinc-300 bg-white text-sm text-zinc-900 shadow-xs transition-colors placeholder:text-zinc-400 " +
  "focus-visible:border-brand-500 focus-visible:ring-3 focus-visible:ring-brand-500/20 focus-visible:outline-none " +
  "disabled:cursor-not-allowed disabled:bg-zinc-50 disabled:text-zinc-500 " +
  "aria-invalid:border-red-500 aria-invalid:focus-visible:ring-red-500/20";

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input({ className, type = "text", ...props }, ref) {
  return <input ref={ref} type={type} className={cn(controlClasses, "h-9 px-3", className)} {...props} />;
});
