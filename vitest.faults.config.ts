import path from "node:path";
import { defineConfig } from "vitest/config";

// `npm run test:faults`: the reliability tests (faults/): real worker processes killed, a database
// stopped mid-send, slow SMTP servers, several workers on one database, the supervised launcher.
// Too slow for `npm test`; CI runs them after the production build (the launcher test needs it).
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["faults/**/*.test.ts"],
    globalSetup: ["lib/testing/global-setup.ts"],
    testTimeout: 600_000,
    hookTimeout: 180_000,
    pool: "forks",
    // One at a time: each runs worker processes at full speed, and they measure times.
    maxWorkers: 1,
    fileParallelism: false,
  },
});
