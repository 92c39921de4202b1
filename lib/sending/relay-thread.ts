// The relay's SMTP conversations, in a thread of their own (started by relay-in-thread.ts). The
// worker's main thread claims, prepares and records in batches; here nothing waits behind that
// work, so a reply of the relay is answered at once instead of after the batch in progress — and
// an accepted email is marked so on its claim from here, before its connection ends another
// message (smtp-pool.ts, relay-recorder.ts).
import { parentPort, workerData } from "node:worker_threads";
import { createPool } from "@/lib/db/connections";
import { RELAY_WRITES, RelayRecorder } from "./relay-recorder";
import { SmtpPool } from "./smtp-pool";
import { relayTransportOptions, smtpErrorFields, type RelayJob, type RelayReply } from "./relay-options";

const port = parentPort!;
const { relayUrl, databaseUrl } = workerData as { relayUrl: string; databaseUrl?: string };

const pool = databaseUrl ? createPool("relay thread", { max: RELAY_WRITES, connectionTimeoutMillis: 5_000, query_timeout: 60_000 }, databaseUrl) : null;
const recorder = pool
  ? new RelayRecorder(
      pool,
      (error) => port.postMessage({ id: 0, writeFailed: error instanceof Error ? error.message : String(error) } satisfies RelayReply),
      (ids) => port.postMessage({ id: 0, marked: ids } satisfies RelayReply),
    )
  : null;

const transport = new SmtpPool<string>({
  ...relayTransportOptions(relayUrl),
  // Marked here, as it is accepted; its slot is free once PostgreSQL has the mark. The main thread
  // is answered at once and writes the full record as before.
  settle: (emailId, info) => {
    if (!emailId || !recorder) return { free: Promise.resolve(), result: Promise.resolve() };
    const recording = recorder.accepted({
      id: emailId,
      at: new Date().toISOString(),
      response: (info.response ?? info.messageId ?? "").slice(0, 998),
      dsn: info.dsn === true,
    });
    // Its failure is the recorder's to report (and retry); the answer does not wait for it.
    recording.written.catch(() => undefined);
    return { free: recording.handed, result: Promise.resolve() };
  },
});

port.on("message", (job: RelayJob | "close") => {
  if (job === "close") {
    transport.close();
    recorder?.close();
    void pool?.end();
    port.close();
    return;
  }
  // A clone arrives as a plain Uint8Array; nodemailer wants a Buffer (a view, not a copy).
  const message = { ...job.message, raw: Buffer.from(job.raw.buffer, job.raw.byteOffset, job.raw.byteLength) };
  transport.sendMail(message, job.emailId).then(
    (info) => port.postMessage({ id: job.id, response: info.response, messageId: info.messageId, dsn: info.dsn } satisfies RelayReply),
    (error: unknown) => port.postMessage({ id: job.id, error: smtpErrorFields(error) } satisfies RelayReply),
  );
});
