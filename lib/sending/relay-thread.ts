// The relay's SMTP conversations, in a thread of their own (started by relay-in-thread.ts). The
// worker's main thread claims, prepares and records in batches; here nothing waits behind that
// work, so a reply of the relay is answered at once instead of after the batch in progress.
import { parentPort, workerData } from "node:worker_threads";
import { SmtpPool } from "./smtp-pool";
import { relayTransportOptions, smtpErrorFields, type RelayJob, type RelayReply } from "./transports";

const port = parentPort!;
const transport = new SmtpPool(relayTransportOptions((workerData as { relayUrl: string }).relayUrl));

port.on("message", (job: RelayJob | "close") => {
  if (job === "close") {
    transport.close();
    port.close();
    return;
  }
  // A clone arrives as a plain Uint8Array; nodemailer wants a Buffer (a view, not a copy).
  const message = { ...job.message, raw: Buffer.from(job.raw.buffer, job.raw.byteOffset, job.raw.byteLength) };
  transport.sendMail(message).then(
    (info) => port.postMessage({ id: job.id, response: info.response, messageId: info.messageId } satisfies RelayReply),
    (error: unknown) => port.postMessage({ id: job.id, error: smtpErrorFields(error) } satisfies RelayReply),
  );
});
