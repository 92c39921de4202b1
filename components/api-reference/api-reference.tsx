import { FileJson } from "lucide-react";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { Markdown } from "./markdown";
import { MethodBadge } from "./method-badge";
import { groupByTag, slug, type OpenApiDocument } from "./openapi-types";
import { OperationView } from "./operation-view";
import { SchemaView } from "./schema-view";
import { WebhookEvents, webhookEvents } from "./webhook-events";

/** The whole OpenAPI document: an index beside the operations, grouped by tag. */
export function ApiReference({ doc }: { doc: OpenApiDocument }) {
  const groups = groupByTag(doc);
  const events = webhookEvents(doc);
  const errorSchema = doc.components?.schemas?.Error;
  return (
    <>
      <PageHeader
        title="API reference"
        description={`${doc.info.title} ${doc.info.version}. Everything the dashboard does, your code can do over /v1.`}
        actions={
          <a href="/v1/openapi.json" className={buttonClasses({ variant: "secondary" })} target="_blank" rel="noreferrer">
            <FileJson aria-hidden />
            OpenAPI JSON
          </a>
        }
      />
      <div className="lg:grid lg:grid-cols-[200px_minmax(0,1fr)] lg:gap-8">
        <nav aria-label="API reference index" className="mb-6 lg:sticky lg:top-20 lg:mb-0 lg:max-h-[calc(100vh-6rem)] lg:self-start lg:overflow-y-auto lg:pb-8">
          <ul className="flex flex-wrap gap-1.5 text-sm lg:hidden">
            <li>
              <a href="#overview" className="inline-flex rounded-full border border-zinc-200 bg-white px-2.5 py-1 text-zinc-700 hover:border-zinc-300">
                Overview
              </a>
            </li>
            {groups.map(({ tag }) => (
              <li key={tag}>
                <a
                  href={`#tag-${slug(tag)}`}
                  className="inline-flex rounded-full border border-zinc-200 bg-white px-2.5 py-1 text-zinc-700 hover:border-zinc-300"
                >
                  {tag}
                </a>
              </li>
            ))}
            {events.length > 0 && (
              <li>
                <a href="#webhook-events" className="inline-flex rounded-full border border-zinc-200 bg-white px-2.5 py-1 text-zinc-700 hover:border-zinc-300">
                  Webhook events
                </a>
              </li>
            )}
          </ul>
          <ul className="hidden flex-col gap-4 text-sm lg:flex">
            <li>
              <a href="#overview" className="font-medium text-zinc-900 hover:text-brand-600">
                Overview
              </a>
            </li>
            {groups.map(({ tag, operations }) => (
              <li key={tag}>
                <a href={`#tag-${slug(tag)}`} className="font-medium text-zinc-900 hover:text-brand-600">
                  {tag}
                </a>
                <ul className="mt-1.5 flex flex-col gap-0.5 border-l border-zinc-200">
                  {operations.map((op) => (
                    <li key={op.id}>
                      <a
                        href={`#${op.id}`}
                        className="-ml-px flex items-center gap-2 border-l border-transparent py-0.5 pl-3 text-[13px] text-zinc-600 hover:border-zinc-400 hover:text-zinc-900"
                      >
                        <MethodBadge method={op.method} compact />
                        <span className="truncate" title={op.summary}>
                          {op.summary}
                        </span>
                      </a>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
            {events.length > 0 && (
              <li>
                <a href="#webhook-events" className="font-medium text-zinc-900 hover:text-brand-600">
                  Webhook events
                </a>
                <ul className="mt-1.5 flex flex-col gap-0.5 border-l border-zinc-200">
                  {events.map(({ type, id }) => (
                    <li key={id}>
                      <a
                        href={`#${id}`}
                        className="-ml-px block border-l border-transparent py-0.5 pl-3 font-mono text-[12px] text-zinc-600 hover:border-zinc-400 hover:text-zinc-900"
                      >
                        {type}
                      </a>
                    </li>
                  ))}
                </ul>
              </li>
            )}
          </ul>
        </nav>
        <div className="flex min-w-0 flex-col gap-10">
          <section id="overview" className="scroll-mt-20">
            <Card className="px-6 py-5">
              {doc.info.description && <Markdown source={doc.info.description} />}
              {doc.servers?.[0] && (
                <p className="mt-4 text-sm text-zinc-600">
                  Base URL: <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-[13px] text-zinc-800">{doc.servers[0].url}</code>
                </p>
              )}
              {errorSchema && (
                <div className="mt-5 border-t border-zinc-100 pt-4">
                  <h3 className="mb-1 text-sm font-semibold text-zinc-900">Error body</h3>
                  <SchemaView schema={errorSchema} doc={doc} />
                </div>
              )}
            </Card>
          </section>
          {groups.map(({ tag, operations }) => (
            <section key={tag} id={`tag-${slug(tag)}`} className="scroll-mt-20" aria-labelledby={`tag-${slug(tag)}-title`}>
              <h2 id={`tag-${slug(tag)}-title`} className="mb-4 text-lg font-semibold tracking-tight text-zinc-900">
                {tag}
              </h2>
              <div className="flex flex-col gap-4">
                {operations.map((op) => (
                  <OperationView key={op.id} op={op} doc={doc} />
                ))}
              </div>
            </section>
          ))}
          <WebhookEvents doc={doc} />
        </div>
      </div>
    </>
  );
}
