"use client";

import { Monitor, Moon, Smartphone, Sun } from "lucide-react";
import { useMemo, useState } from "react";
import { Dialog } from "@/components/ui/dialog";
import { SandboxedFrame } from "@/components/ui/sandboxed-frame";
import { cn } from "@/lib/client/cn";
import type { Contact } from "@/lib/client/resources/contacts";
import { contactValues, renderEmail } from "@/lib/templating/render-email";
import { ContactPicker } from "./preview-as";

export type PreviewSource = {
  subject: string;
  previewText: string | null;
  fromName: string | null;
  fromEmail: string;
  html: string | null;
  text: string | null;
};

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

/** The email as a recipient would see it: in an inbox row, then opened, on a desktop or a phone, light or dark. */
export function PreviewDialog({
  open,
  onOpenChange,
  source,
  segmentId,
  contact,
  onContactChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  source: PreviewSource;
  segmentId: string | null;
  contact: Contact | null;
  onContactChange: (contact: Contact | null) => void;
}) {
  const [device, setDevice] = useState<"desktop" | "mobile">("desktop");
  const [theme, setTheme] = useState<"light" | "dark">("light");
  const rendered = useMemo(() => {
    const unsubscribe = "https://example.com/unsubscribe";
    const preferences = "https://example.com/preferences";
    const extra: Record<string, string> = { unsubscribe_url: unsubscribe, preferences_url: preferences };
    const values = contact ? contactValues(contact, extra) : (name: string) => extra[name];
    return renderEmail(
      { subject: source.subject, html: source.html, text: source.text, previewText: source.previewText },
      { values, unsubscribeUrl: unsubscribe, preferencesUrl: preferences },
    );
  }, [source, contact]);
  const previewLine = useMemo(() => {
    const fromPreheader = source.previewText
      ? renderEmail({ subject: source.previewText, html: null, text: null }, { values: contact ? contactValues(contact) : () => undefined }).subject
      : "";
    return fromPreheader || rendered.text.replace(/\s+/g, " ").slice(0, 140);
  }, [source.previewText, contact, rendered.text]);
  const html = rendered.html
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
                <span className="truncate font-semibold">{source.fromName || source.fromEmail}</span>
                <span className={cn("shrink-0 text-xs", theme === "dark" ? "text-zinc-400" : "text-zinc-500")}>now</span>
              </div>
              <p className="truncate text-sm font-medium" data-testid="preview-subject">
                {rendered.subject}
              </p>
              <p className={cn("truncate text-sm", theme === "dark" ? "text-zinc-400" : "text-zinc-500")}>{previewLine}</p>
            </div>
          </div>
          <ContactPicker segmentId={segmentId} value={contact} onChange={onContactChange} />
        </div>
        <div className={cn("flex justify-center rounded-lg p-3", theme === "dark" ? "bg-zinc-800" : "bg-zinc-100")}>
          <SandboxedFrame
            html={html}
            title="Email preview"
            className={cn("h-[28rem] rounded-md shadow-sm transition-[width]", device === "mobile" ? "w-[375px]" : "w-full")}
          />
        </div>
      </div>
    </Dialog>
  );
}
