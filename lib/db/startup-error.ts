/**
 * A start-up failure an operator can act on: its message says what is wrong and what to do, in one
 * line. Entry points print it without a stack (`exitOnStartupError`).
 */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StartupError";
  }
}

type DriverError = { code?: unknown; message?: unknown };

/** host:port and the role of a connection string, for messages (never its password). */
function describeTarget(connectionString: string): { where: string; database: string; user: string } {
  const url = new URL(connectionString);
  return {
    where: `${url.hostname}:${url.port || "5432"}`,
    database: decodeURIComponent(url.pathname.replace(/^\//, "")),
    user: decodeURIComponent(url.username),
  };
}

/**
 * What a failed connection to PostgreSQL means, as one actionable line; undefined for errors that
 * are not about reaching or entering the server (a failing migration, say).
 */
export function explainConnectionError(error: unknown, connectionString: string, source: string): string | undefined {
  const { where, database, user } = describeTarget(connectionString);
  const code = (error as DriverError | null)?.code;
  switch (code) {
    case "ECONNREFUSED":
      return `Cannot reach PostgreSQL at ${where} (${source}): nothing listens there. Start the server or correct ${source}.`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `Cannot resolve the PostgreSQL host of ${source} (${where}). Correct the host name.`;
    case "ETIMEDOUT":
      return `PostgreSQL at ${where} (${source}) did not answer in time. Check the host, the port and any firewall between.`;
    case "28P01":
    case "28000":
      return `PostgreSQL at ${where} refused role "${user}": wrong password, or the role may not connect (${source}).`;
    case "3D000":
      return `Database "${database}" does not exist on ${where} and could not be created. Create it (CREATE DATABASE "${database}") or give role "${user}" the CREATEDB privilege.`;
    case "42501":
      return `Role "${user}" may not create database "${database}" on ${where}. Create it as a superuser (CREATE DATABASE "${database}") or grant the role CREATEDB.`;
    case "57P03":
      return `PostgreSQL at ${where} is starting up or shutting down. Try again in a moment.`;
    default:
      return undefined;
  }
}

/** Prints a start-up failure as one line — the whole stack only for an unexpected error — and exits 1. */
export function exitOnStartupError(error: unknown): never {
  const message = error instanceof StartupError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`error: ${message}\n`);
  process.exit(1);
}
