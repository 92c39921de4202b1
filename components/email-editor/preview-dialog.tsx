"use client";

import { Monitor, Moon, Smartphone, Sun } from "lucide-react";
import { useState } from "react";
import { Dialog } from "@/components/ui/dialog";
import { SandboxedFrame } from "@/components/ui/sandboxed-frame";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/client/api";
import { cn } from "@/lib/client/cn";
import { useBroadcastPreview } from "@/lib/client/resources/broadcasts";
import type { Contact } from "@/lib/client/resources/contacts";
import { ContactPicker } from "./preview-as";

// Mail apps in dark mode invert light designs (Outlook.com, Gmail's apps); this shows roughly what they make of it.
const DARK =
  "<style>html{filter:invert(1) hue-rotate(180deg);background:#fff}img,video,[style*='background-image']{filter:invert(1) hue-rotate(180deg)}</style>";

const withHead = (html: string, extra: string) => (/<\/head>/i.test(html) ? html.replace(/<\/head>/i, `${extra}</head>`) : extra + html);

function Toggle<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: { value: T; label: string; icon: typeof Sun }[];
  onChange: (value: T) => void;
}) {
  return (
    <div role="group" aria-label={label} className="inline-flex rounded-md border border-zinc-200 bg-zinc-50 p-0.5">
      {options.map(({ value: option, label: text, icon: Icon }) => (
        <button
          key={option}
          type="button"
          aria-pressed={value === option}
          onClick={() => onChange(option)}
          className={cn(
            "inline-flex h-7 items-center gap-1.5 rounded px-2.5 text-sm text-zinc-600 [&_svg]:size-3.5",
            value === option && "bg-white font-medium text-zinc-900 shadow-xs",
          )}
        >
          <Icon aria-hidden />
          {text}
        </button>
      ))}
    </div>
  );
}

/**
 * The email as a recipient would see it: in an inbox row, then opened, on a desktop or a phone,
 * light or dark. Rendered by the server as the sender would (GET /v1/broadcasts/{id}/preview): the
 * chosen contact's placeholders and conditional blocks, or everything for nobody in particular.
 */
export function PreviewDialog({
  open,
  onOpenChange,
  broadcastId,
  stepId,
  from,
  segmentId,
  contact,
  onContactChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  broadcastId: string;
  /** A follow-up step instead of the first email. */
  stepId?: string | null;
  from: string;
  segmentId: string | null;
  contact: Contact | null;
  onContactChange: (contact: Contact | null) => void;
}) {
  const [device, setDevice] = useState<"desktop" | "mobile">("desktop");
  const [theme, setTheme] = useState<"light" | "dark">("light");
  const preview = useBroadcastPreview(broadcastId, { stepId, contactId: contact?.id }, open);
  const rendered = preview.data;
  const previewLine = rendered ? rendered.preview_text || rendered.text.replace(/\s+/g, " ").slice(0, 140) : "";
  const html = !rendered
    ? ""
    : rendered.html
      ? withHead(rendered.html, theme === "dark" ? DARK : "")
      : `<pre style="font-family:sans-serif;white-space:pre-wrap;padding:16px">${rendered.text.replace(/[<&]/g, (c) => (c === "<" ? "&lt;" : "&amp;"))}</pre>`;

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Preview" description="As a recipient sees it, with their placeholders filled." size="lg">
      <div className="flex flex-col gap-4">
        <div className="grid gap-4 md:grid-cols-[minmax(0,1fr)_220px]">
          <div className="flex flex-col gap-3">
            <div className="flex flex-wrap gap-2">
              <Toggle
                label="Width"
                value={device}
                onChange={setDevice}
                options={[
                  { value: "desktop", label: "Desktop", icon: Monitor },
                  { value: "mobile", label: "Mobile", icon: Smartphone },
                ]}
              />
              <Toggle
                label="Colors"
                value={theme}
                onChange={setTheme}
                options={[
                  { value: "light", label: "Light", icon: Sun },
                  { value: "dark", label: "Dark", icon: Moon },
                ]}
              />
            </div>
            <div
              aria-label="Inbox row"
              role="group"
              className={cn("rounded-lg border px-3 py-2", theme === "dark" ? "border-zinc-700 bg-zinc-900 text-zinc-100" : "border-zinc-200 bg-white")}
            >
              <div className="flex justify-between gap-2 text-sm">
                <span className="truncate font-semibold">{from}</span>
                <span className={cn("shrink-0 text-xs", theme === "dark" ? "text-zinc-400" : "text-zinc-500")}>now</span>
              </div>
              <p className="truncate text-sm font-medium" data-testid="preview-subject">
                {rendered?.subject ?? "…"}
              </p>
              <p className={cn("truncate text-sm", theme === "dark" ? "text-zinc-400" : "text-zinc-500")}>{previewLine}</p>
            </div>
          </div>
          <ContactPicker segmentId={segmentId} value={contact} onChange={onContactChange} />
        </div>
        <div className={cn("flex justify-center rounded-lg p-3", theme === "dark" ? "bg-zinc-800" : "bg-zinc-100")}>
          {preview.isError ? (
            <p role="alert" className="py-10 text-sm text-red-600">
              The preview could not be made: {errorMessage(preview.error)}
            </p>
          ) : rendered ? (
            <SandboxedFrame
              html={html}
              title="Email preview"
              className={cn("h-[28rem] rounded-md shadow-sm transition-[width]", device === "mobile" ? "w-[375px]" : "w-full")}
            />
          ) : (
            <div role="status" aria-label="Rendering the preview" className={cn(device === "mobile" ? "w-[375px]" : "w-full")}>
              <Skeleton className="h-[28rem] w-full rounded-md" />
            </div>
          )}
        </div>
      </div>
    </Dialog>
  );
}
