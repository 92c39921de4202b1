import { existsSync } from "node:fs";
import { defineConfig } from "@playwright/test";

// Debian's Chromium where it is installed (these machines cannot download Playwright's own);
// Playwright's browser otherwise. CHROMIUM_PATH overrides both.
const chromium = process.env.CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);
const port = Number(process.env.E2E_PORT ?? 3300);
// Each concurrent local run needs a data directory (and ports) of its own.
export const e2eDataDir = process.env.E2E_DATA_DIR ?? ".data/e2e";

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"]],
  use: {
    baseURL: `http://localhost:${port}`,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: chromium,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-quic",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  webServer: {
    // The production build, on an embedded database of its own; tests make unique users, so data left
    // from an earlier local run does not matter.
    command: `rm -rf ${e2eDataDir}/mail && npm run start`,
    url: `http://localhost:${port}/api/health`,
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
    env: {
      PORT: String(port),
      DATA_DIR: e2eDataDir,
      EMBEDDED_PG_PORT: process.env.E2E_PG_PORT ?? "54349",
      APP_URL: `http://localhost:${port}`,
      AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret",
      // The inbound report listener: off unless a port is given, so parallel runs never fight over one.
      INBOUND_SMTP_PORT: process.env.INBOUND_SMTP_PORT ?? "0",
      // The same for the SMTP submission listener.
      SUBMISSION_SMTP_PORT: process.env.SUBMISSION_SMTP_PORT ?? "0",
      NEXT_TELEMETRY_DISABLED: "1",
      // The specs' SMTP sinks listen on random loopback ports (e2e/inboxes.spec.ts); nothing else private is admitted.
      ALLOWED_PRIVATE_HOSTS: "127.0.0.1:*",
    },
  },
});
