import { AlertTriangle, CircleAlert, Info, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "@/lib/client/cn";

const tones: Record<"info" | "warning" | "danger", { box: string; icon: LucideIcon; iconColor: string }> = {
  info: { box: "border-sky-200 bg-sky-50 text-sky-900", icon: Info, iconColor: "text-sky-600" },
  warning: { box: "border-amber-200 bg-amber-50 text-amber-900", icon: AlertTriangle, iconColor: "text-amber-600" },
  danger: { box: "border-red-200 bg-red-50 text-red-900", icon: CircleAlert, iconColor: "text-red-600" },
};

/** A banner inside a page: why something is read-only, a warning, a hint worth reading. */
export function Callout({
  tone = "info",
  title,
  children,
  action,
  className,
}: {
  tone?: keyof typeof tones;
  title?: ReactNode;
  children?: ReactNode;
  action?: ReactNode;
  className?: string;
}) {
  const { box, icon: Icon, iconColor } = tones[tone];
  return (
    <div role={tone === "info" ? "note" : "alert"} className={cn("flex gap-3 rounded-lg border px-4 py-3 text-sm", box, className)}>
      <Icon className={cn("mt-0.5 size-4 shrink-0", iconColor)} aria-hidden />
      <div className="min-w-0 flex-1">
        {title && <p className="font-medium">{title}</p>}
        {children && <div className={cn("opacity-90", title && "mt-0.5")}>{children}</div>}
      </div>
      {action && <div className="shrink-0 self-center">{action}</div>}
    </div>
  );
}
