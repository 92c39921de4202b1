"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/lib/client/cn";
import { focusRing } from "@/components/ui/focus-ring";
import { isActive, navSections } from "./nav-items";

/** The main navigation, as the sidebar shows it on laptop widths and up. */
export function SidebarNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className="flex flex-col gap-5">
      {navSections.map((section, index) => (
        <div key={section.label ?? index}>
          {section.label && <p className="mb-1 px-2.5 text-[11px] font-medium tracking-wide text-zinc-400 uppercase">{section.label}</p>}
          <ul className="flex flex-col gap-0.5">
            {section.items.map(({ href, label, icon: Icon }) => {
              const active = isActive(pathname, href);
              return (
                <li key={href}>
                  <Link
                    href={href}
                    aria-current={active ? "page" : undefined}
                    className={cn(
                      "flex h-8 items-center gap-2.5 rounded-md px-2.5 text-sm font-medium transition-colors",
                      active ? "bg-white text-zinc-900 shadow-xs ring-1 ring-zinc-200" : "text-zinc-600 hover:bg-zinc-200/50 hover:text-zinc-900",
                      focusRing,
                      "focus-visible:ring-offset-zinc-50",
                    )}
                  >
                    <Icon className={cn("size-4", active ? "text-brand-600" : "text-zinc-400")} aria-hidden />
                    {label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </nav>
  );
}
