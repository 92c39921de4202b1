import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { cn } from "@/lib/client/cn";
import { InlineMarkdown, Markdown } from "./markdown";
import { MethodBadge } from "./method-badge";
import { resolveParameters, resolveResponse, type DocumentedOperation, type OpenApiDocument } from "./openapi-types";
import { SchemaView } from "./schema-view";

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="border-t border-zinc-100 px-5 py-4">
      <h4 className="mb-1 text-xs font-semibold tracking-wide text-zinc-500 uppercase">{title}</h4>
      {children}
    </section>
  );
}

const statusTone = (status: string) =>
  status.startsWith("2")
    ? "bg-emerald-50 text-emerald-700 ring-emerald-600/20"
    : status.startsWith("5")
      ? "bg-red-50 text-red-700 ring-red-600/20"
      : "bg-amber-50 text-amber-800 ring-amber-600/25";

export function OperationView({ op, doc }: { op: DocumentedOperation; doc: OpenApiDocument }) {
  const parameters = resolveParameters(op, doc);
  const body = op.requestBody?.content?.["application/json"]?.schema;
  const responses = Object.entries(op.responses ?? {}).map(([status, response]) => [status, resolveResponse(response, doc)] as const);
  const success = responses.filter(([status]) => status.startsWith("2"));
  const failures = responses.filter(([status]) => !status.startsWith("2"));
  return (
    <Card id={op.id} className="scroll-mt-20 overflow-hidden">
      <header className="px-5 pt-4 pb-4">
        <h3 className="text-base font-semibold text-zinc-900">{op.summary}</h3>
        <div className="mt-2 flex items-center gap-2">
          <MethodBadge method={op.method} />
          <code className="min-w-0 font-mono text-[13px] break-all text-zinc-800">{op.path}</code>
          <CopyButton value={op.path} what="path" variant="ghost" className="size-7" />
        </div>
        {op.description && <Markdown source={op.description} className="mt-3" />}
      </header>
      {parameters.length > 0 && (
        <Section title="Parameters">
          <ul className="divide-y divide-zinc-100">
            {parameters.map((param) => (
              <li key={`${param.in}-${param.name}`} className="py-3">
                <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
                  <code className="font-mono text-[13px] font-semibold text-zinc-900">{param.name}</code>
                  <span className="rounded bg-zinc-100 px-1.5 py-px text-[11px] text-zinc-600">{param.in}</span>
                  {param.schema && (
                    <span className="font-mono text-xs text-zinc-500">
                      {typeof param.schema.type === "string" ? param.schema.type : "string"}
                      {param.schema.format ? ` (${param.schema.format})` : ""}
                    </span>
                  )}
                  {param.required && <span className="text-xs font-medium text-amber-700">required</span>}
                </div>
                {param.description && (
                  <p className="mt-1 text-[13px] text-zinc-600">
                    <InlineMarkdown text={param.description} />
                  </p>
                )}
                {param.schema?.enum && (
                  <div className="mt-1.5 flex flex-wrap items-center gap-1.5 text-xs text-zinc-500">
                    One of
                    {param.schema.enum.map((value) => (
                      <code key={String(value)} className="rounded border border-zinc-200 bg-zinc-50 px-1.5 py-px font-mono text-[11px] text-zinc-700">
                        {String(value)}
                      </code>
                    ))}
                  </div>
                )}
              </li>
            ))}
          </ul>
        </Section>
      )}
      {body && (
        <Section title="Request body">
          <SchemaView schema={body} doc={doc} />
        </Section>
      )}
      {success.map(([status, response]) => (
        <Section key={status} title={`Response ${status}`}>
          {response.description && response.description !== "Success" && <p className="mb-2 text-[13px] text-zinc-600">{response.description}</p>}
          {response.content?.["application/json"]?.schema ? (
            <SchemaView schema={response.content["application/json"].schema} doc={doc} />
          ) : (
            <p className="text-[13px] text-zinc-500">No body.</p>
          )}
        </Section>
      ))}
      {failures.length > 0 && (
        <Section title="Errors">
          <ul className="mt-2 flex flex-col gap-1.5">
            {failures.map(([status, response]) => (
              <li key={status} className="flex items-baseline gap-2.5 text-[13px]">
                <span
                  className={cn(
                    "inline-flex w-10 shrink-0 justify-center rounded px-1 py-px font-mono text-xs font-semibold ring-1 ring-inset",
                    statusTone(status),
                  )}
                >
                  {status}
                </span>
                <span className="text-zinc-600">{(response.description ?? "").replace(/^Error: /, "")}</span>
              </li>
            ))}
          </ul>
        </Section>
      )}
    </Card>
  );
}
