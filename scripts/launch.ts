import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { ensureDatabase } from "@/lib/db/ensure-database";
import { exitOnStartupError } from "@/lib/db/startup-error";
import { env } from "@/lib/env";

const require = createRequire(import.meta.url);

/**
 * `npm run dev` and `npm start`: the database first (embedded unless DATABASE_URL is set, migrated
 * either way), then Next.js and, beside it, the worker. Ctrl-C stops them all; the embedded
 * PostgreSQL keeps running for the next start (`npm run db:stop` stops it).
 */
export async function launch(mode: "dev" | "start", extraArgs: string[]) {
  const started = Date.now();
  await ensureDatabase().catch(exitOnStartupError);
  void env.authSecret; // written once here, before several processes could race to create it
  console.log(`database ready in ${Date.now() - started} ms (${env.usesEmbeddedDatabase ? `embedded, ${env.dataDir}` : "DATABASE_URL"})`);

  const children: ChildProcess[] = [];
  const nextBin = require.resolve("next/dist/bin/next");
  children.push(spawn(process.execPath, [nextBin, mode, "-p", String(env.port), ...extraArgs], { stdio: "inherit" }));
  // The worker sends what the web server queues; it is TypeScript, run through tsx like this script.
  children.push(spawn(process.execPath, ["--import", "tsx", "worker/index.ts"], { stdio: "inherit" }));
  // The listener for delivery reports (INBOUND_SMTP_PORT, 0: none).
  if (env.inboundSmtpPort > 0) children.push(spawn(process.execPath, ["--import", "tsx", "scripts/inbound.ts"], { stdio: "inherit" }));

  const stop = (code: number) => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
    process.exit(code);
  };
  process.on("SIGINT", () => stop(0));
  process.on("SIGTERM", () => stop(0));
  for (const child of children) child.on("exit", (code) => stop(code ?? 1));
}
