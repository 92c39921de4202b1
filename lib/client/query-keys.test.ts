import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { queryKeys } from "./query-keys";

type Factory = (...args: never[]) => readonly unknown[];

/** Every key the factory can make, each with a sample argument, by its path in the factory. */
function leafKeys(node: unknown, at: string[] = []): [string, readonly unknown[]][] {
  if (typeof node === "function") return [[at.join("."), (node as Factory)(...(["00000000-0000-0000-0000-000000000001", { limit: 1 }] as never[]))]];
  return Object.entries(node as Record<string, unknown>).flatMap(([name, child]) => leafKeys(child, [...at, name]));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(name) && !name.endsWith(".test.ts") ? [file] : [];
  });
}

describe("query keys", () => {
  it("never gives two kinds of data the same key", () => {
    const keys = leafKeys(queryKeys);
    const seen = new Map<string, string>();
    for (const [name, key] of keys) {
      const text = JSON.stringify(key);
      // `all()` is a resource's prefix; every other key must be its own.
      expect(seen.get(text), `${name} repeats ${seen.get(text)}: ${text}`).toBeUndefined();
      seen.set(text, name);
    }
    expect(keys.length).toBeGreaterThan(30);
  });

  it("keeps a resource's picker array and its list pages apart (the inboxes crash)", () => {
    expect(queryKeys.inboxes.options()).not.toEqual(queryKeys.inboxes.list());
    expect(queryKeys.inboxes.options().slice(0, 1)).toEqual(queryKeys.inboxes.all());
  });

  it("is the only place the dashboard spells a key", () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const offenders = ["components", "app", "lib/client"]
      .flatMap((dir) => sourceFiles(path.join(root, dir)))
      .filter((file) => !file.endsWith("query-keys.ts") && !file.endsWith("use-cursor-list.ts"))
      .filter((file) => /queryKey:\s*\[|setQueryData\(\s*\[|Key\s*=\s*\[\s*"/.test(readFileSync(file, "utf8")))
      .map((file) => path.relative(root, file));
    expect(offenders).toEqual([]);
  });
});
