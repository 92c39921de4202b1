import type { Readable } from "node:stream";
import { MailParser, type AddressObject, type AttachmentStream, type HeaderLines, type Headers, type MessageText } from "mailparser";
import { AppError } from "@/lib/domain/errors";
import { sendEmailInput, sendingLimits, type SendEmailInput } from "@/lib/schemas/send-email";
import { AttachmentBudget, spoolBytes } from "@/lib/services/attachment-upload";
import type { AttachmentFile } from "@/lib/services/email-attachments";
import type { EmailRequest } from "@/lib/services/transactional";

/** A submitted message as POST /v1/emails would have it, with its Message-ID (for idempotency). */
export type Submission = { request: EmailRequest; messageId: string | null };

const addresses = (value: AddressObject | AddressObject[] | undefined) =>
  [value ?? []].flat().flatMap((group) => group.value.flatMap((entry) => (entry.group ? entry.group : [entry])).map((entry) => entry.address ?? ""));

const formatted = (value: AddressObject | AddressObject[] | undefined): string | undefined => {
  const first = [value ?? []].flat()[0]?.value[0];
  if (!first?.address) return undefined;
  return first.name ? `${first.name.replace(/[<>"]/g, "")} <${first.address}>` : first.address;
};

/** The message's own `X-` headers, names as written, values as they came (encoded words stay encoded: they travel on as they are). */
function customHeaders(lines: HeaderLines): Record<string, string> {
  const result: Record<string, string> = {};
  for (const { line } of lines) {
    const at = line.indexOf(":");
    const name = line.slice(0, at).trim();
    if (!/^x-/i.test(name)) continue;
    result[name] = line
      .slice(at + 1)
      .replace(/\r?\n[ \t]+/g, " ")
      .trim();
  }
  return result;
}

/**
 * Reads a submitted message as it streams in (mailparser), each attachment into a temporary file
 * (the same spool and the same 10 MB budget as POST /v1/emails), and makes of it the input that
 * POST /v1/emails takes, checked by the same schema. Recipients come from the envelope, as SMTP
 * means them: the To and Cc headers' addresses among them are to and cc, the rest bcc (so a Bcc
 * the client left in the header is never written into the message). The stream is always read to
 * its end, as SMTP requires; on any error the spooled files are removed.
 */
export async function parseSubmission(stream: Readable, envelopeTo: string[]): Promise<Submission> {
  const parser = new MailParser({ skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true, skipImageLinks: true });
  const budget = new AttachmentBudget();
  const files: AttachmentFile[] = [];
  const spooling: Promise<void>[] = [];
  let headers: Headers = new Map();
  let headerLines: HeaderLines = [];
  let text: MessageText | null = null;
  let failure: unknown = null;

  parser.on("headers", (value: Headers) => (headers = value));
  parser.on("headerLines", (value: HeaderLines) => (headerLines = value));
  parser.on("data", (data: AttachmentStream | MessageText) => {
    if (data.type === "text") {
      text = data;
      return;
    }
    const index = files.length;
    const file: AttachmentFile = {
      filename: data.filename ?? `attachment-${index + 1}`,
      content_type: data.contentType,
      content_id: data.related && data.cid ? data.cid : undefined,
      upload: undefined as never,
    };
    files.push(file);
    spooling.push(
      spoolBytes(data.content as AsyncIterable<Buffer>, budget)
        .then((upload) => {
          file.upload = upload;
        })
        .catch((error: unknown) => {
          failure ??= error;
          data.content.resume();
        })
        .finally(() => data.release?.()),
    );
  });

  try {
    await new Promise<void>((resolve, reject) => {
      parser.once("end", resolve);
      parser.once("error", reject);
      stream.once("error", reject);
      stream.pipe(parser);
    });
    await Promise.all(spooling);
    if (failure) throw failure;
    return { request: { input: inputOf(headers, headerLines, text, files, envelopeTo), attachments: files }, messageId: messageIdOf(headers) };
  } catch (error) {
    // The rest of the message is read and dropped: the client waits for an answer after its final dot.
    stream.unpipe(parser);
    stream.resume();
    await Promise.allSettled(spooling);
    await Promise.all(files.map((file) => file.upload?.dispose()));
    throw error;
  }
}

function messageIdOf(headers: Headers): string | null {
  const value = headers.get("message-id");
  return typeof value === "string" && /^<?[\x21-\x7e]{1,250}>?$/.test(value.trim()) ? value.trim() : null;
}

function inputOf(headers: Headers, headerLines: HeaderLines, text: MessageText | null, files: AttachmentFile[], envelopeTo: string[]): SendEmailInput {
  const envelope = new Map(envelopeTo.map((address) => [address.toLowerCase(), address]));
  const inEnvelope = (list: string[]) => [...new Set(list.map((a) => a.toLowerCase()))].filter((a) => envelope.has(a)).map((a) => envelope.get(a)!);
  const to = inEnvelope(addresses(headers.get("to") as AddressObject | undefined));
  const cc = inEnvelope(addresses(headers.get("cc") as AddressObject | undefined)).filter((a) => !to.includes(a));
  const bcc = [...envelope.values()].filter((a) => !to.includes(a) && !cc.includes(a));
  if (to.length === 0) {
    throw new AppError("VALIDATION_ERROR", "The To header must name at least one recipient of the envelope (RCPT TO)", [
      { path: "to", message: "is required" },
    ]);
  }
  const replyTo = addresses(headers.get("reply-to") as AddressObject | undefined);
  const subject = headers.get("subject");
  const body = text as MessageText | null;
  const candidate = {
    from: formatted(headers.get("from") as AddressObject | undefined),
    to,
    cc: cc.length > 0 ? cc : undefined,
    bcc: bcc.length > 0 ? bcc : undefined,
    reply_to: replyTo.length > 0 ? replyTo.slice(0, sendingLimits.recipients) : undefined,
    subject: typeof subject === "string" ? subject : undefined,
    html: typeof body?.html === "string" ? body.html : undefined,
    text: typeof body?.text === "string" ? body.text : undefined,
    headers: customHeaders(headerLines),
    attachments:
      files.length > 0 ? files.map((f) => ({ filename: f.filename, content: "", content_type: f.content_type, content_id: f.content_id })) : undefined,
  };
  // The schema of POST /v1/emails, so that a message is refused for exactly what a request would be.
  const parsed = sendEmailInput.safeParse(candidate);
  if (!parsed.success) {
    throw new AppError(
      "VALIDATION_ERROR",
      "The message is not one the API would send",
      parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join("."), message: issue.message })),
    );
  }
  return parsed.data;
}
