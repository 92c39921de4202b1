"use client";

import { Monitor, Smartphone } from "lucide-react";
import { useState } from "react";
import { useWatch, type Control } from "react-hook-form";
import { Card } from "@/components/ui/card";
import { SandboxedFrame } from "@/components/ui/sandboxed-frame";
import { useDebouncedValue } from "@/components/ui/use-debounced-value";
import { cn } from "@/lib/client/cn";
import { previewHtml } from "@/lib/templating/preview-html";
import { replacePlaceholders } from "@/lib/templating/variables";
import type { TemplateValues } from "./template-values";

const sample = (name: string, fallback: string | undefined) => fallback || `[${name}]`;

/** What a recipient without data would see, as an inbox row and the rendered email, updated as you type. */
export function TemplatePreview({ control }: { control: Control<TemplateValues> }) {
  const [device, setDevice] = useState<"desktop" | "mobile">("desktop");
  const [subject, previewText, fromName, fromEmail, html, text] = useWatch({
    control,
    name: ["subject", "preview_text", "from_name", "from_email", "html_content", "text_content"],
  });
  const deferredHtml = useDebouncedValue(html, 250);
  const sender = fromName || fromEmail || "Your sender";

  return (
    <Card className="overflow-hidden">
      <div className="flex items-center justify-between gap-3 border-b border-zinc-100 px-4 py-2.5">
        <h2 className="text-sm font-semibold text-zinc-900">Live preview</h2>
        <div className="flex rounded-md bg-zinc-100 p-0.5" role="group" aria-label="Preview width">
          {(
            [
              ["desktop", Monitor, "Desktop"],
              ["mobile", Smartphone, "Mobile"],
            ] as const
          ).map(([value, Icon, label]) => (
            <button
              key={value}
              type="button"
              aria-pressed={device === value}
              onClick={() => setDevice(value)}
              className={cn(
                "inline-flex h-7 items-center gap-1.5 rounded px-2 text-xs font-medium text-zinc-600 focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:outline-none",
                device === value && "bg-white text-zinc-900 shadow-xs",
              )}
            >
              <Icon className="size-3.5" aria-hidden />
              {label}
            </button>
          ))}
        </div>
      </div>
      <div className="border-b border-zinc-100 bg-zinc-50/60 px-4 py-3">
        <div className="flex items-baseline justify-between gap-2">
          <p className="truncate text-sm font-semibold text-zinc-900">{sender}</p>
          <p className="shrink-0 text-xs text-zinc-400">now</p>
        </div>
        <p className="truncate text-sm text-zinc-800">{subject ? replacePlaceholders(subject, sample) : <span className="text-zinc-400">No subject</span>}</p>
        <p className="truncate text-[13px] text-zinc-500">
          {previewText ? replacePlaceholders(previewText, sample) : "The first lines of the email show here."}
        </p>
      </div>
      <div className="flex justify-center bg-zinc-100/70 p-3">
        {deferredHtml.trim() ? (
          <SandboxedFrame
            html={previewHtml(deferredHtml, previewText || null)}
            title="Live preview of the template"
            className={cn(
              "h-[560px] rounded-md shadow-xs ring-1 ring-zinc-200 transition-[max-width] duration-200",
              device === "mobile" ? "max-w-[375px]" : "max-w-full",
            )}
          />
        ) : (
          <pre className="h-[560px] w-full overflow-auto rounded-md bg-white p-4 text-[13px] whitespace-pre-wrap text-zinc-700 ring-1 ring-zinc-200">
            {text ? replacePlaceholders(text, sample) : "Write HTML or plain text to see the email here."}
          </pre>
        )}
      </div>
      <p className="px-4 py-2 text-xs text-zinc-500">Placeholders show their fallback, or [name] where there is none.</p>
    </Card>
  );
}
