import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: [
      "lib/**/*.test.ts",
      "cli/**/*.test.ts",
      "app/**/*.test.ts",
      "worker/**/*.test.ts",
      "scripts/**/*.test.ts",
      "security/**/*.test.ts",
      "sdk/**/*.test.ts",
      "components/**/*.test.ts",
    ],
    globalSetup: ["lib/testing/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
