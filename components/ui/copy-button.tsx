"use client";

import { Check, Copy } from "lucide-react";
import { useEffect, useState } from "react";
import { cn } from "@/lib/client/cn";
import { Button, type ButtonProps } from "./button";
import { toast } from "./toast";

async function writeClipboard(value: string) {
  if (navigator.clipboard?.writeText) return navigator.clipboard.writeText(value);
  // Pages served over plain http on another host than localhost have no Clipboard API.
  const area = document.createElement("textarea");
  area.value = value;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand("copy");
  area.remove();
  if (!ok) throw new Error("Copy failed");
}

type CopyButtonProps = Omit<ButtonProps, "onClick" | "children"> & {
  value: string;
  /** Visible text; without it the button is an icon with this as its accessible name. */
  label?: string;
  /** What was copied, for the accessible name and the confirmation: "token", "DNS value". */
  what?: string;
};

export function CopyButton({ value, label, what = "value", variant = "secondary", size, className, ...props }: CopyButtonProps) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 1800);
    return () => clearTimeout(timer);
  }, [copied]);
  const Icon = copied ? Check : Copy;
  return (
    <>
      <Button
        variant={variant}
        size={size ?? (label ? "sm" : "icon")}
        className={cn(copied && "text-emerald-700", className)}
        aria-label={label ? undefined : `Copy ${what}`}
        title={label ? undefined : `Copy ${what}`}
        onClick={async () => {
          try {
            await writeClipboard(value);
            setCopied(true);
          } catch {
            toast.error(new Error(`Could not copy the ${what}. Select it and copy it by hand.`));
          }
        }}
        {...props}
      >
        <Icon aria-hidden />
        {label && <span>{copied ? "Copied" : label}</span>}
      </Button>
      <span className="sr-only" aria-live="polite">
        {copied ? `Copied ${what}` : ""}
      </span>
    </>
  );
}
