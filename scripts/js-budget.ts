// npm run js-budget [-- --budget 252] [-- --json]
// First-load JavaScript of every page of the production build, gzipped, against a budget (252 KB).
//
// Next 16 no longer prints sizes in `next build`, so this reads what the build leaves in .next: the
// scripts every page loads (build-manifest.json `rootMainFiles`; the polyfills are `nomodule` and
// skipped by modern browsers) plus, per page, the chunks its client reference manifest lists for the
// page and its layouts (`entryJSFiles`). Chunks a page imports with `next/dynamic` or `import()`
// load later and are not counted. Exits 1 when a page is over the budget.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";

const { values } = parseArgs({
  options: { budget: { type: "string", default: "252" }, json: { type: "boolean", default: false } },
  strict: true,
});
const budgetKb = Number(values.budget);

// Pages that still load a form (react-hook-form and zod, about 55 KB gzipped) with the page: held at
// this ceiling so they cannot grow, until their dialogs load on first use as /contacts' does.
// Raised on 27 Nov (budget 250 → 252, ceiling 345 → 350): the sending-window, tracking and inbox work
// grew the schemas every page's data layer carries (/contacts 249.3 → 250.2 KB) and the broadcast page
// to 349.1 KB, 346.6 KB once its follow-up dialog loaded on first use. Next: find what in those
// schemas the client need not carry, and lower both again.
const FORM_PAGES_CEILING_KB = 350;
const FORM_PAGES = new Set([
  "/broadcasts/[id]",
  "/settings",
  "/suppressions",
  "/contacts/import",
  "/webhooks",
  "/team",
  "/templates/[id]",
  "/templates/new",
  "/emails/[id]",
  "/broadcasts",
  "/segments",
  "/account",
]);
const limitOf = (route: string) => (FORM_PAGES.has(route) ? Math.max(budgetKb, FORM_PAGES_CEILING_KB) : budgetKb);
const next = path.join(process.cwd(), ".next");
if (!existsSync(path.join(next, "BUILD_ID"))) {
  process.stderr.write("js-budget: no production build in .next — run `npm run build` first.\n");
  process.exit(2);
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(path.join(next, file), "utf8")) as T;
const rootMainFiles = readJson<{ rootMainFiles: string[] }>("build-manifest.json").rootMainFiles;
const routes = readJson<Record<string, string>>("app-path-routes-manifest.json");

const gzipped = new Map<string, number>();
const sizeOf = (file: string) => {
  let size = gzipped.get(file);
  if (size === undefined) {
    size = gzipSync(readFileSync(path.join(next, file)), { level: 9 }).length;
    gzipped.set(file, size);
  }
  return size;
};

/** The chunks a page's HTML loads: its client reference manifest's entries for the page and every layout above it. */
function pageChunks(entry: string): string[] {
  const file = path.join(next, "server", "app", `${entry}_client-reference-manifest.js`);
  if (!existsSync(file)) return [];
  const scope: { __RSC_MANIFEST?: Record<string, { entryJSFiles?: Record<string, string[]> }> } = {};
  // The manifest is a script assigning to globalThis.__RSC_MANIFEST; run it against a scope of our own.
  new Function("globalThis", readFileSync(file, "utf8"))(scope);
  const manifest = scope.__RSC_MANIFEST?.[entry];
  return Object.values(manifest?.entryJSFiles ?? {}).flat();
}

const kb = (bytes: number) => bytes / 1024;
const rows = Object.entries(routes)
  .filter(([entry]) => entry.endsWith("/page"))
  .map(([entry, route]) => {
    const files = [...new Set([...rootMainFiles, ...pageChunks(entry)])];
    const bytes = files.reduce((sum, f) => sum + sizeOf(f), 0);
    return { route, chunks: files.length, kb: Number(kb(bytes).toFixed(1)), limit_kb: limitOf(route), over: kb(bytes) > limitOf(route) };
  })
  .sort((a, b) => b.kb - a.kb);
const shared = kb(rootMainFiles.reduce((sum, f) => sum + sizeOf(f), 0));

if (values.json) process.stdout.write(`${JSON.stringify({ budget_kb: budgetKb, shared_kb: Number(shared.toFixed(1)), routes: rows })}\n`);
const width = Math.max(5, ...rows.map((r) => r.route.length));
const lines = [
  `first-load JS per page, gzipped (budget ${budgetKb} KB; shared by all: ${shared.toFixed(1)} KB)`,
  `${"route".padEnd(width)}  ${"KB".padStart(6)}  ${"limit".padStart(6)}  chunks`,
  ...rows.map(
    (r) =>
      `${r.route.padEnd(width)}  ${r.kb.toFixed(1).padStart(6)}  ${String(r.limit_kb).padStart(6)}  ${String(r.chunks).padStart(6)}${r.over ? "  OVER" : ""}`,
  ),
];
process.stderr.write(`${lines.join("\n")}\n`);
const over = rows.filter((r) => r.over);
if (over.length) {
  process.stderr.write(`js-budget: ${over.length} page(s) over their limit: ${over.map((r) => `${r.route} ${r.kb} KB > ${r.limit_kb} KB`).join(", ")}\n`);
  process.exit(1);
}
