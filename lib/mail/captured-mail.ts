import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { simpleParser, type ParsedMail } from "mailparser";
import { env } from "@/lib/env";
import { settleMailAfterAnswer } from "./after-answer";

/**
 * The system mail written to the data directory for `to` (when no SMTP_URL is set), oldest first,
 * once the mail this process started after an answer is out.
 * For tests and local tooling: it parses with mailparser, a development dependency.
 */
export async function readCapturedMail(to: string): Promise<ParsedMail[]> {
  // Mail some requests send after their answer (a reset link) is written by then.
  await settleMailAfterAnswer();
  const dir = path.join(env.dataDir, "mail");
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith(".eml") && name.includes(`-${to}-`)).sort();
  return Promise.all(names.map(async (name) => simpleParser(await readFile(path.join(dir, name)))));
}

/** The invitation token in a message's accept link. */
export function invitationTokenOf(mail: Pick<ParsedMail, "text">): string {
  const match = /\/invitations\/([A-Za-z0-9_-]+)/.exec(mail.text ?? "");
  if (!match) throw new Error("no invitation link in the message");
  return match[1];
}
