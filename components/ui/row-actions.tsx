"use client";

import { MoreHorizontal, Pencil, Trash2 } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "./button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from "./dropdown-menu";

/** The "…" menu at the end of a list row; `name` says whose actions they are to screen readers. */
export function RowActions({ name, children }: { name: string; children: ReactNode }) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={`Actions for ${name}`}>
          <MoreHorizontal aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>{children}</DropdownMenuContent>
    </DropdownMenu>
  );
}

export function RowEditItem({ onSelect }: { onSelect: () => void }) {
  return (
    <DropdownMenuItem onSelect={onSelect}>
      <Pencil aria-hidden />
      Edit
    </DropdownMenuItem>
  );
}

/** The row menu's Delete: last, and set apart so a slip of the pointer does not pick it. */
export function RowDeleteItem({ onSelect, disabled }: { onSelect: () => void; disabled?: boolean }) {
  return (
    <>
      <DropdownMenuSeparator />
      <DropdownMenuItem destructive disabled={disabled} onSelect={onSelect}>
        <Trash2 aria-hidden />
        Delete
      </DropdownMenuItem>
    </>
  );
}
