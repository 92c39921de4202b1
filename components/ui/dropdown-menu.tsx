"use client";

import { DropdownMenu as Menu } from "radix-ui";
import type { ComponentProps, ReactNode } from "react";
import { cn } from "@/lib/client/cn";

export const DropdownMenu = Menu.Root;
export const DropdownMenuTrigger = Menu.Trigger;

export function DropdownMenuContent({ className, align = "end", sideOffset = 6, ...props }: ComponentProps<typeof Menu.Content>) {
  return (
    <Menu.Portal>
      <Menu.Content
        align={align}
        sideOffset={sideOffset}
        className={cn("z-50 min-w-48 overflow-hidden rounded-lg border border-zinc-200 bg-white p-1 text-sm shadow-lg animate-fade-in", className)}
        {...props}
      />
    </Menu.Portal>
  );
}

export function DropdownMenuItem({ className, destructive, ...props }: ComponentProps<typeof Menu.Item> & { destructive?: boolean }) {
  return (
    <Menu.Item
      className={cn(
        "flex cursor-default items-center gap-2 rounded-md px-2.5 py-1.5 text-zinc-800 outline-none select-none data-disabled:opacity-50 data-highlighted:bg-zinc-100 [&_svg]:size-4 [&_svg]:text-zinc-500",
        destructive && "text-red-600 data-highlighted:bg-red-50 [&_svg]:text-red-500",
        className,
      )}
      {...props}
    />
  );
}

export function DropdownMenuLabel({ children, className }: { children: ReactNode; className?: string }) {
  return <Menu.Label className={cn("px-2.5 pt-1.5 pb-1 text-xs font-medium text-zinc-500", className)}>{children}</Menu.Label>;
}

export function DropdownMenuSeparator() {
  return <Menu.Separator className="-mx-1 my-1 h-px bg-zinc-100" />;
}
