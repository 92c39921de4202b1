import { cn } from "@/lib/client/cn";

/**
 * Shows untrusted HTML (an email) in an iframe with every sandbox restriction: no scripts, no
 * same-origin access, no forms, no popups, no navigation of the dashboard. Nothing inside can
 * read the session or the page around it.
 */
export function SandboxedFrame({ html, title, className }: { html: string; title: string; className?: string }) {
  return <iframe sandbox="" srcDoc={html} title={title} referrerPolicy="no-referrer" className={cn("block w-full border-0 bg-white", className)} />;
}
