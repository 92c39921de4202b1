// `npm run submission` (and beside the web server and the worker in `npm run dev` / `npm start`):
// the SMTP submission listener for applications that speak only SMTP. Each message is an email
// as POST /v1/emails makes one; the worker sends it. SUBMISSION_SMTP_PORT=0 turns it off.
import { readFileSync } from "node:fs";
import { db } from "@/lib/db";
import { pool } from "@/lib/db/pool";
import { ensureDatabase } from "@/lib/db/ensure-database";
import { exitOnStartupError } from "@/lib/db/startup-error";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { startSubmissionServer } from "@/lib/submission/submission-server";

if (env.submissionSmtpPort === 0) {
  log.info("[submission] SUBMISSION_SMTP_PORT=0: no listener");
  process.exit(0);
}
if (!env.submissionTlsCert !== !env.submissionTlsKey) {
  log.error("[submission] SUBMISSION_TLS_CERT and SUBMISSION_TLS_KEY go together: set both or neither");
  process.exit(1);
}
await ensureDatabase().catch(exitOnStartupError);
const tls = env.submissionTlsCert && env.submissionTlsKey ? { cert: readFileSync(env.submissionTlsCert), key: readFileSync(env.submissionTlsKey) } : null;
const server = await startSubmissionServer({
  port: env.submissionSmtpPort,
  host: env.submissionSmtpListen,
  tls,
  allowInsecureAuth: env.submissionAllowInsecureAuth,
});
log.info(
  `[submission] taking mail from applications on ${env.submissionSmtpListen}:${server.port} (${tls ? "STARTTLS" : "no TLS: AUTH from loopback only"}${env.submissionAllowInsecureAuth ? ", plain AUTH allowed from anywhere" : ""}, pid ${process.pid})`,
);

async function shutdown() {
  await server.close();
  await Promise.all([db.$disconnect(), pool.end()]);
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown());
process.on("SIGINT", () => void shutdown());
