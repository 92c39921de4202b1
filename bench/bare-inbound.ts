// The intake scenario's baseline: a bare smtp-server in a process of its own that accepts every
// message and stores it in one table, and does nothing else (no address check, no parsing, no
// recording). Tells the parent its port over IPC.
import type { AddressInfo } from "node:net";
import pg from "pg";
import { SMTPServer } from "smtp-server";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
await pool.query("CREATE TABLE IF NOT EXISTS bench_bare_reports (id bigserial PRIMARY KEY, recipient text NOT NULL, raw bytea NOT NULL)");

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS", "AUTH"],
  logger: false,
  maxClients: 1000,
  disableReverseLookup: true,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => {
      pool.query("INSERT INTO bench_bare_reports (recipient, raw) VALUES ($1, $2)", [session.envelope.rcptTo[0]?.address ?? "", Buffer.concat(chunks)]).then(
        () => callback(),
        (error: Error) => callback(error),
      );
    });
  },
});

server.listen(0, "127.0.0.1", () => process.send!({ type: "ready", port: (server.server.address() as AddressInfo).port }));
process.on("disconnect", () => server.close(() => void pool.end().then(() => process.exit(0))));
