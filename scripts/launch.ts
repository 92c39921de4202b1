import { createRequire } from "node:module";
import { ensureDatabase } from "@/lib/db/ensure-database";
import { exitOnStartupError } from "@/lib/db/startup-error";
import { env } from "@/lib/env";
import { supervise, type ChildSpec } from "./supervise";
import { WEB_SERVER_NODE_FLAGS } from "./web-server-flags";

const require = createRequire(import.meta.url);

/**
 * `npm run dev` and `npm start`: the database first (embedded unless DATABASE_URL is set, migrated
 * either way), then Next.js and, beside it, the worker and the SMTP listeners — each supervised: a child that dies is
 * started again with backoff, and never takes the others down. Ctrl-C or SIGTERM stops them all
 * gracefully (each finishes its work in flight) before the launcher exits; the embedded PostgreSQL
 * keeps running for the next start (`npm run db:stop` stops it).
 */
export async function launch(mode: "dev" | "start", extraArgs: string[]) {
  const started = Date.now();
  await ensureDatabase().catch(exitOnStartupError);
  void env.authSecret; // written once here, before several processes could race to create it
  console.log(`database ready in ${Date.now() - started} ms (${env.usesEmbeddedDatabase ? `embedded, ${env.dataDir}` : "DATABASE_URL"})`);

  const children: ChildSpec[] = [
    // The production server with its memory flags (web-server-flags.ts); the dev server as Next.js starts it.
    {
      name: "web",
      args: [...(mode === "start" ? WEB_SERVER_NODE_FLAGS : []), require.resolve("next/dist/bin/next"), mode, "-p", String(env.port), ...extraArgs],
    },
    // The worker sends what the web server queues; it is TypeScript, run through tsx like this script.
    { name: "worker", args: ["--import", "tsx", "worker/index.ts"] },
  ];
  // The listener for delivery reports (INBOUND_SMTP_PORT, 0: none).
  if (env.inboundSmtpPort > 0) children.push({ name: "inbound", args: ["--import", "tsx", "scripts/inbound.ts"] });
  // SMTP submission for applications (SUBMISSION_SMTP_PORT, 0: none).
  if (env.submissionSmtpPort > 0) children.push({ name: "submission", args: ["--import", "tsx", "scripts/submission.ts"] });
  const supervisor = supervise(children);
  const stop = (signal: NodeJS.Signals) => {
    void supervisor.stop(signal).then(() => process.exit(0));
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}
