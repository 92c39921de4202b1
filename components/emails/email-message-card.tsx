"use client";

import { Card } from "@/components/ui/card";
import { SandboxedFrame } from "@/components/ui/sandboxed-frame";
import { stripOpenPixel } from "@/lib/tracking/strip-open-pixel";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import type { EmailDetail } from "./email-types";

const headerValue = (value: unknown) => (typeof value === "string" ? value : Array.isArray(value) ? value.map(String).join(", ") : JSON.stringify(value));

/** The message as the recipient saw it (in a sandbox: nothing in it can run), its text, and its headers. */
export function EmailMessageCard({ email }: { email: EmailDetail }) {
  const headers = Object.entries(email.headers);
  const hasHtml = Boolean(email.html_content?.trim());
  return (
    <Card className="overflow-hidden">
      <Tabs defaultValue={hasHtml ? "preview" : "text"}>
        <TabsList className="mb-0 px-3">
          {hasHtml && <TabsTrigger value="preview">Preview</TabsTrigger>}
          <TabsTrigger value="text">Plain text</TabsTrigger>
          <TabsTrigger value="headers">Headers ({headers.length})</TabsTrigger>
        </TabsList>
        {hasHtml && (
          <TabsContent value="preview" className="bg-zinc-100/70 p-3">
            <SandboxedFrame
              html={stripOpenPixel(email.html_content ?? "")}
              title={`Message: ${email.subject}`}
              className="h-[560px] rounded-md ring-1 ring-zinc-200"
            />
          </TabsContent>
        )}
        <TabsContent value="text" className="p-5">
          {email.text_content?.trim() ? (
            <pre className="max-h-[560px] overflow-auto font-sans text-sm leading-relaxed whitespace-pre-wrap text-zinc-800">{email.text_content}</pre>
          ) : (
            <p className="text-sm text-zinc-500">This email has no plain-text part.</p>
          )}
        </TabsContent>
        <TabsContent value="headers" className="p-0">
          {headers.length === 0 ? (
            <p className="p-5 text-sm text-zinc-500">No headers were recorded for this email.</p>
          ) : (
            <dl className="divide-y divide-zinc-100 font-mono text-[12.5px]">
              {headers.map(([name, value]) => (
                <div key={name} className="grid gap-1 px-5 py-2 sm:grid-cols-[12rem_minmax(0,1fr)] sm:gap-4">
                  <dt className="font-medium text-zinc-500">{name}</dt>
                  <dd className="break-all text-zinc-800">{headerValue(value)}</dd>
                </div>
              ))}
            </dl>
          )}
        </TabsContent>
      </Tabs>
    </Card>
  );
}
