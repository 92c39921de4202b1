// `npm run inbound` (and beside the web server and the worker in `npm run dev` / `npm start`): the
// SMTP listener that receives delivery reports and complaints at the return-path MX. It only stores
// them; the worker records them. INBOUND_SMTP_PORT=0 turns it off.
import { pool } from "@/lib/db/pool";
import { ensureDatabase } from "@/lib/db/ensure-database";
import { env } from "@/lib/env";
import { startInboundServer } from "@/lib/feedback/inbound-server";
import { log } from "@/lib/log";

if (env.inboundSmtpPort === 0) {
  log.info("[inbound] INBOUND_SMTP_PORT=0: no listener");
  process.exit(0);
}
await ensureDatabase();
const server = await startInboundServer({ port: env.inboundSmtpPort, host: env.inboundSmtpListen });
log.info(`[inbound] receiving delivery reports on ${env.inboundSmtpListen}:${server.port} for the MX ${env.inboundSmtpHost} (pid ${process.pid})`);

async function shutdown() {
  await server.close();
  await pool.end();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown());
process.on("SIGINT", () => void shutdown());
