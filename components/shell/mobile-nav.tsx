"use client";

import { Menu } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { cn } from "@/lib/client/cn";
import { isActive, navSections } from "./nav-items";

/** The same navigation as a menu in the header, below laptop widths where the sidebar is hidden. */
export function MobileNav() {
  const pathname = usePathname();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label="Open navigation">
          <Menu aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-60">
        {navSections.map((section, index) => (
          <div key={section.label ?? index}>
            {index > 0 && <DropdownMenuSeparator />}
            {section.label && <DropdownMenuLabel>{section.label}</DropdownMenuLabel>}
            {section.items.map(({ href, label, icon: Icon }) => (
              <DropdownMenuItem key={href} asChild className={cn(isActive(pathname, href) && "bg-zinc-100 font-medium text-zinc-900")}>
                <Link href={href} aria-current={isActive(pathname, href) ? "page" : undefined}>
                  <Icon aria-hidden />
                  {label}
                </Link>
              </DropdownMenuItem>
            ))}
          </div>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
