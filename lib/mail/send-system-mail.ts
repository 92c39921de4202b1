import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { env } from "@/lib/env";

export type SystemMail = { to: string; subject: string; html: string; text: string };

let smtp: Transporter | undefined;

const fileSafe = (value: string) => value.replace(/[^A-Za-z0-9@._+-]/g, "_").slice(0, 100);

/**
 * Mail the service itself sends (invitations), as opposed to the organizations' own email.
 * Without SMTP_URL it is written as an .eml file under the data directory, so a developer can open
 * the message and follow its links without any mail server. Answers the message id or the file.
 */
export async function sendSystemMail(mail: SystemMail): Promise<string> {
  const message = { from: env.mailFrom, to: mail.to, subject: mail.subject, html: mail.html, text: mail.text };
  if (env.smtpUrl) {
    smtp ??= nodemailer.createTransport(env.smtpUrl);
    const info = await smtp.sendMail(message);
    return info.messageId;
  }
  const info = await nodemailer.createTransport({ streamTransport: true, buffer: true }).sendMail(message);
  const dir = path.join(env.dataDir, "mail");
  await mkdir(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const file = path.join(dir, `${stamp}-${fileSafe(mail.to)}-${randomBytes(3).toString("hex")}.eml`);
  await writeFile(file, info.message);
  return file;
}
