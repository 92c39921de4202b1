// Our registry serves the Linux builds of packages with per-platform optional dependencies (Next's
// SWC, Tailwind's oxide, …) but not the macOS/Windows/Android ones, so npm writes no lockfile entry
// for those. `npm ci` then finds its ideal tree (which keeps a failed optional dependency as an empty
// node under its dependent) out of sync with the lockfile and refuses to install. An empty optional
// entry at that same place makes the two agree; npm skips it when installing.
// Run after `npm install` changes dependencies: `node scripts/lockfile-placeholders.mjs`.
import { readFileSync, writeFileSync } from "node:fs";

const file = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(file, "utf8"));
const packages = lock.packages;
let added = 0;
for (const [path, entry] of Object.entries({ ...packages })) {
  for (const name of Object.keys(entry.optionalDependencies ?? {})) {
    const nested = `${path ? `${path}/` : ""}node_modules/${name}`;
    if (!packages[nested] && !packages[`node_modules/${name}`]) {
      packages[nested] = { optional: true };
      added++;
    }
  }
}
if (added) writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lockfile: ${added} placeholder entr${added === 1 ? "y" : "ies"} added for optional dependencies the registry does not serve`);
