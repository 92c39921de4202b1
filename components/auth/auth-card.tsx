import type { ReactNode } from "react";
import { Card } from "@/components/ui/card";

/** The card every sign-in, sign-up and invitation screen sits in. */
export function AuthCard({ title, description, children, footer }: { title: ReactNode; description?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <>
      <Card className="px-6 py-7 shadow-sm sm:px-8">
        <h1 className="text-xl font-semibold tracking-tight text-zinc-900">{title}</h1>
        {description && <p className="mt-1.5 text-sm text-zinc-500">{description}</p>}
        <div className="mt-6">{children}</div>
      </Card>
      {footer && <p className="mt-6 text-center text-sm text-zinc-500">{footer}</p>}
    </>
  );
}
