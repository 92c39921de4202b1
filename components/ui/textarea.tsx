import { forwardRef, type TextareaHTMLAttributes } from "react";
import { cn } from "@/lib/client/cn";
import { controlClasses } from "./input";

export const Textarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(function Textarea({ className, rows = 4, ...props }, ref) {
  return <textarea ref={ref} rows={rows} className={cn(controlClasses, "min-h-20 px-3 py-2 leading-relaxed", className)} {...props} />;
});
