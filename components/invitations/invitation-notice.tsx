import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Card } from "@/components/ui/card";
import { cn } from "@/lib/client/cn";

const tones = {
  neutral: "border-zinc-200 bg-zinc-50 text-zinc-500",
  warning: "border-amber-200 bg-amber-50 text-amber-600",
  success: "border-emerald-200 bg-emerald-50 text-emerald-600",
} as const;

/** A friendly page for an invitation link that cannot be accepted: what happened, what to do. */
export function InvitationNotice({
  icon: Icon,
  tone = "neutral",
  title,
  children,
  actions,
}: {
  icon: LucideIcon;
  tone?: keyof typeof tones;
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Card className="px-6 py-8 text-center shadow-sm sm:px-8">
      <div className={cn("mx-auto mb-5 flex size-12 items-center justify-center rounded-full border", tones[tone])}>
        <Icon className="size-5" aria-hidden />
      </div>
      <h1 className="text-xl font-semibold tracking-tight text-zinc-900">{title}</h1>
      <div className="mt-2 space-y-2 text-sm text-zinc-500">{children}</div>
      {actions && <div className="mt-7 flex flex-col gap-2">{actions}</div>}
    </Card>
  );
}
