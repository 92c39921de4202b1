import { cn } from "@/lib/client/cn";

const palette = ["bg-indigo-500", "bg-emerald-500", "bg-amber-500", "bg-rose-500", "bg-sky-500", "bg-violet-500", "bg-teal-500"];

/** A colored square with the first letter; the color is stable for a name. */
export function OrganizationAvatar({ name, className }: { name: string; className?: string }) {
  const hash = [...name].reduce((sum, char) => (sum * 31 + char.charCodeAt(0)) >>> 0, 7);
  return (
    <span
      className={cn("flex size-6 shrink-0 items-center justify-center rounded-md text-xs font-semibold text-white", palette[hash % palette.length], className)}
      aria-hidden
    >
      {name.trim().charAt(0).toUpperCase() || "?"}
    </span>
  );
}
