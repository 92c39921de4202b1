import { AsyncLocalStorage } from "node:async_hooks";
import pino from "pino";
import { env } from "@/lib/env";

/** What every log line written while serving one request (or running one job) carries. */
export type LogContext = { request_id?: string; organization_id?: string };

const context = new AsyncLocalStorage<LogContext>();

/**
 * The structured log of the web server, the worker and the sender: one JSON object per line on
 * stdout, with the request id and organization id of the work it happened in (from an
 * AsyncLocalStorage, so no function has to pass a logger down).
 */
export const log = createLogger();

/** The log's settings, writing to `destination` (stdout unless a test passes its own). */
export function createLogger(destination?: pino.DestinationStream) {
  const options = { level: env.logLevel, timestamp: pino.stdTimeFunctions.isoTime, mixin: () => ({ ...context.getStore() }) };
  return destination ? pino(options, destination) : pino(options);
}

/** Runs `work` with `fields` on every log line it writes, however deep. */
export function withLogContext<T>(fields: LogContext, work: () => T): T {
  return context.run({ ...fields }, work);
}

/** Adds the organization to the current context once the caller is known. */
export function setLogOrganization(organizationId: string) {
  const store = context.getStore();
  if (store) store.organization_id = organizationId;
}

/** An error as a log field: message and stack for Errors, the value otherwise. */
export const errorField = (error: unknown) => (error instanceof Error ? { message: error.message, stack: error.stack } : { value: String(error) });
