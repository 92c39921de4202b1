import type { Client } from "openapi-fetch";
import { unwrap } from "./errors";
import type { paths } from "./generated/schema";
import { paginate, type ListParams } from "./paginate";

type Method = "get" | "post" | "put" | "delete";
type Operation<P extends keyof paths, M extends Method> = paths[P][M];
/** The JSON body an operation takes. */
export type BodyOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;
type QueryOf<P extends keyof paths, M extends Method> = Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** Per-call options of the sends. */
export type SendOptions = {
  /** Your own key for this send (e.g. your order id); by default each call gets a new random one, kept across its retries. */
  idempotencyKey?: string;
};

const keyHeader = (options?: SendOptions) => (options?.idempotencyKey ? { "idempotency-key": options.idempotencyKey } : undefined);
const byId = (id: string) => ({ params: { path: { id } } });

const CONTACT_PAGE = 100;

/**
 * Methods for the main resources, answering the record (or throwing MailplatformError) instead of
 * `{ data, error }`: `client.templates.get(id)`, `for await (const t of client.templates.list())`.
 * Everything else is one typed call away: `client.GET("/v1/broadcasts/{id}/report", …)`.
 */
export function resources(client: Client<paths>) {
  return {
    emails: {
      send: async (body: BodyOf<"/v1/emails", "post">, options?: SendOptions) => unwrap(await client.POST("/v1/emails", { body, headers: keyHeader(options) })),
      get: async (id: string) => unwrap(await client.GET("/v1/emails/{id}", byId(id))),
    },
    broadcasts: {
      list: (params?: ListParams<"/v1/broadcasts">) => paginate(client, "/v1/broadcasts", params),
      get: async (id: string) => unwrap(await client.GET("/v1/broadcasts/{id}", byId(id))),
      create: async (body: BodyOf<"/v1/broadcasts", "post">) => unwrap(await client.POST("/v1/broadcasts", { body })),
      update: async (id: string, body: BodyOf<"/v1/broadcasts/{id}", "put">) => unwrap(await client.PUT("/v1/broadcasts/{id}", { ...byId(id), body })),
      delete: async (id: string) => unwrap(await client.DELETE("/v1/broadcasts/{id}", byId(id))),
      /** Sends now, or at `scheduled_at`. */
      send: async (id: string, body: BodyOf<"/v1/broadcasts/{id}/send", "post"> = {}, options?: SendOptions) =>
        unwrap(await client.POST("/v1/broadcasts/{id}/send", { ...byId(id), body, headers: keyHeader(options) })),
      /** A new draft for the recipients who did not open (or click) this one. */
      resend: async (id: string, body: BodyOf<"/v1/broadcasts/{id}/resend", "post">) =>
        unwrap(await client.POST("/v1/broadcasts/{id}/resend", { ...byId(id), body })),
    },
    templates: {
      list: (params?: ListParams<"/v1/templates">) => paginate(client, "/v1/templates", params),
      get: async (id: string) => unwrap(await client.GET("/v1/templates/{id}", byId(id))),
      create: async (body: BodyOf<"/v1/templates", "post">) => unwrap(await client.POST("/v1/templates", { body })),
      update: async (id: string, body: BodyOf<"/v1/templates/{id}", "put">) => unwrap(await client.PUT("/v1/templates/{id}", { ...byId(id), body })),
      delete: async (id: string) => unwrap(await client.DELETE("/v1/templates/{id}", byId(id))),
    },
    contacts: {
      /** Every matching contact, newest first, `limit` (100) a request: the list pages by offset. */
      list: async function* (query: Omit<QueryOf<"/v1/contacts", "get">, "offset"> = {}) {
        for (let offset = 0; ;) {
          const page = unwrap(await client.GET("/v1/contacts", { params: { query: { limit: CONTACT_PAGE, ...query, offset } } }));
          yield* page.contacts;
          offset += page.contacts.length;
          if (page.contacts.length === 0 || offset >= page.total) return;
        }
      },
      get: async (id: string) => unwrap(await client.GET("/v1/contacts/{id}", byId(id))),
      create: async (body: BodyOf<"/v1/contacts", "post">) => unwrap(await client.POST("/v1/contacts", { body })),
      update: async (id: string, body: BodyOf<"/v1/contacts/{id}", "put">) => unwrap(await client.PUT("/v1/contacts/{id}", { ...byId(id), body })),
      delete: async (id: string) => unwrap(await client.DELETE("/v1/contacts/{id}", byId(id))),
      /** Tags, unsubscribes, deletes or (un)segments contacts by id or filter; a large selection answers a job to follow. */
      bulkAction: async (body: BodyOf<"/v1/contacts/bulk-actions", "post">) => unwrap(await client.POST("/v1/contacts/bulk-actions", { body })),
      bulkActionJob: async (id: string) => unwrap(await client.GET("/v1/contacts/bulk-actions/jobs/{id}", byId(id))),
    },
    segments: {
      list: (params?: ListParams<"/v1/segments">) => paginate(client, "/v1/segments", params),
      get: async (id: string) => unwrap(await client.GET("/v1/segments/{id}", byId(id))),
      create: async (body: BodyOf<"/v1/segments", "post">) => unwrap(await client.POST("/v1/segments", { body })),
      update: async (id: string, body: BodyOf<"/v1/segments/{id}", "put">) => unwrap(await client.PUT("/v1/segments/{id}", { ...byId(id), body })),
      delete: async (id: string) => unwrap(await client.DELETE("/v1/segments/{id}", byId(id))),
      /** How many contacts a filter matches now, and up to ten of them, saving nothing. */
      preview: async (body: BodyOf<"/v1/segments/preview", "post">) => unwrap(await client.POST("/v1/segments/preview", { body })),
    },
    contactProperties: {
      list: async () => unwrap(await client.GET("/v1/contact-properties")),
      create: async (body: BodyOf<"/v1/contact-properties", "post">) => unwrap(await client.POST("/v1/contact-properties", { body })),
      delete: async (id: string) => unwrap(await client.DELETE("/v1/contact-properties/{id}", byId(id))),
    },
    webhooks: {
      list: (params?: ListParams<"/v1/webhooks">) => paginate(client, "/v1/webhooks", params),
      get: async (id: string) => unwrap(await client.GET("/v1/webhooks/{id}", byId(id))),
      create: async (body: BodyOf<"/v1/webhooks", "post">) => unwrap(await client.POST("/v1/webhooks", { body })),
      update: async (id: string, body: BodyOf<"/v1/webhooks/{id}", "put">) => unwrap(await client.PUT("/v1/webhooks/{id}", { ...byId(id), body })),
      delete: async (id: string) => unwrap(await client.DELETE("/v1/webhooks/{id}", byId(id))),
      /** Sends a signed `webhook.test` event now; answers the delivery with its log once it was tried. */
      test: async (id: string) => unwrap(await client.POST("/v1/webhooks/{id}/test", byId(id))),
      /** One delivery with the body sent and each attempt's request and answer. */
      getDelivery: async (id: string, deliveryId: string) =>
        unwrap(await client.GET("/v1/webhooks/{id}/deliveries/{deliveryId}", { params: { path: { id, deliveryId } } })),
      /** Sends a delivery again now, with the same `webhook-id`; answers it with its log. */
      replay: async (id: string, deliveryId: string) =>
        unwrap(await client.POST("/v1/webhooks/{id}/deliveries/{deliveryId}/replay", { params: { path: { id, deliveryId } } })),
    },
  };
}
