import { Card } from "@/components/ui/card";
import { InlineMarkdown } from "./markdown";
import { slug, type OpenApiDocument } from "./openapi-types";
import { SchemaView } from "./schema-view";

/** The document's `webhooks` section: each event type with its payload, as the webhook receives it. */
export function webhookEvents(doc: OpenApiDocument) {
  return Object.entries(doc.webhooks ?? {}).flatMap(([type, item]) => (item.post ? [{ type, id: `webhook-${slug(type)}`, op: item.post }] : []));
}

export function WebhookEvents({ doc }: { doc: OpenApiDocument }) {
  const events = webhookEvents(doc);
  if (events.length === 0) return null;
  return (
    <section id="webhook-events" className="scroll-mt-20" aria-labelledby="webhook-events-title">
      <h2 id="webhook-events-title" className="mb-1 text-lg font-semibold tracking-tight text-zinc-900">
        Webhook events
      </h2>
      <p className="mb-4 text-sm text-zinc-600">
        POSTed as JSON to every enabled webhook subscribed to the type, signed with the <code className="font-mono text-[13px]">webhook-id</code>,{" "}
        <code className="font-mono text-[13px]">webhook-timestamp</code> and <code className="font-mono text-[13px]">webhook-signature</code> headers (Standard
        Webhooks).
      </p>
      <div className="flex flex-col gap-4">
        {events.map(({ type, id, op }) => {
          const payload = op.requestBody?.content?.["application/json"]?.schema;
          // The event's meaning is written once, on its payload schema.
          const description = op.description ?? doc.components?.schemas?.[payload?.$ref?.split("/").pop() ?? ""]?.description;
          return (
            <Card key={type} id={id} className="scroll-mt-20 overflow-hidden">
              <header className="px-5 pt-4 pb-3">
                <h3 className="font-mono text-[15px] font-semibold text-zinc-900">{type}</h3>
                {description && (
                  <p className="mt-1 text-sm text-zinc-600">
                    <InlineMarkdown text={description} />
                  </p>
                )}
              </header>
              {payload && (
                <section className="border-t border-zinc-100 px-5 py-4">
                  <h4 className="mb-1 text-xs font-semibold tracking-wide text-zinc-500 uppercase">Payload</h4>
                  <SchemaView schema={payload} doc={doc} />
                </section>
              )}
            </Card>
          );
        })}
      </div>
    </section>
  );
}
