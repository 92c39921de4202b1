import type { ReactNode } from "react";
import { cn } from "@/lib/client/cn";

/** `code` and **bold** inside one line of text. */
function inline(text: string): ReactNode[] {
  return text.split(/(`[^`]+`|\*\*[^*]+\*\*)/g).map((part, i) => {
    if (part.startsWith("`") && part.endsWith("`") && part.length > 1) {
      return (
        <code key={i} className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-[0.85em] text-zinc-800">
          {part.slice(1, -1)}
        </code>
      );
    }
    if (part.startsWith("**") && part.endsWith("**") && part.length > 3) {
      return (
        <strong key={i} className="font-semibold text-zinc-800">
          {part.slice(2, -2)}
        </strong>
      );
    }
    return part;
  });
}

type Block = { kind: "heading"; text: string } | { kind: "list"; items: string[] } | { kind: "paragraph"; text: string };

function blocks(source: string): Block[] {
  const result: Block[] = [];
  for (const chunk of source.split(/\n\s*\n/)) {
    const lines = chunk.split("\n");
    let paragraph: string[] = [];
    const flush = () => {
      if (paragraph.length) result.push({ kind: "paragraph", text: paragraph.join(" ") });
      paragraph = [];
    };
    for (const line of lines) {
      if (/^#{1,6}\s/.test(line)) {
        flush();
        result.push({ kind: "heading", text: line.replace(/^#+\s*/, "") });
      } else if (/^\s*[-*]\s/.test(line)) {
        flush();
        const last = result[result.length - 1];
        const item = line.replace(/^\s*[-*]\s/, "");
        if (last?.kind === "list") last.items.push(item);
        else result.push({ kind: "list", items: [item] });
      } else if (/^\s+\S/.test(line) && result[result.length - 1]?.kind === "list" && paragraph.length === 0) {
        // An indented line continues the previous list item.
        const list = result[result.length - 1] as { kind: "list"; items: string[] };
        list.items[list.items.length - 1] += ` ${line.trim()}`;
      } else if (line.trim()) {
        paragraph.push(line.trim());
      }
    }
    flush();
  }
  return result;
}

/** One line with `code` and **bold**, e.g. a schema field's description. */
export function InlineMarkdown({ text }: { text: string }) {
  return <>{inline(text)}</>;
}

/** The small Markdown subset the API descriptions use: headings, lists, paragraphs, code, bold. */
export function Markdown({ source, className }: { source: string; className?: string }) {
  return (
    <div className={cn("space-y-3 text-sm leading-relaxed text-zinc-600", className)}>
      {blocks(source).map((block, i) => {
        if (block.kind === "heading") {
          return (
            <h3 key={i} className="pt-2 text-sm font-semibold text-zinc-900">
              {inline(block.text)}
            </h3>
          );
        }
        if (block.kind === "list") {
          return (
            <ul key={i} className="list-disc space-y-1 pl-5 marker:text-zinc-300">
              {block.items.map((item, j) => (
                <li key={j}>{inline(item)}</li>
              ))}
            </ul>
          );
        }
        return <p key={i}>{inline(block.text)}</p>;
      })}
    </div>
  );
}
