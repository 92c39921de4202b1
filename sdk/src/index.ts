export { createMailplatform, type Mailplatform, type MailplatformOptions } from "./client";
export { MailplatformError } from "./errors";
export type { CursorListPath, ListItem, ListParams } from "./paginate";
export type { BodyOf, SendOptions } from "./resources";
export type { RetryOptions } from "./retry";
export type * from "./generated/schema";
export type { WebhookEvent } from "./webhook-event";
