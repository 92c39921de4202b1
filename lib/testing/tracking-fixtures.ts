import { randomUUID } from "node:crypto";
import type { TxtServer } from "@/lib/dns/txt-server";
import { createSender } from "@/lib/sending/sender";
import { createTestOrg, type TestOrg } from "./api";
import { drain } from "./sending-fixtures";
import type { ReceivedMail, SmtpSink } from "./smtp-sink";

// Import this module after pointing DNS_RESOLVER at the test's DNS server: lib/env reads it once.

export type PublishedRecord = { type: string; name: string; value: string; purpose: string; priority?: number };

/** Publishes records in the test's DNS server, as a domain owner would at their provider. */
function publishRecords(dns: TxtServer, records: PublishedRecord[]) {
  for (const record of records) {
    if (record.type === "MX") dns.mx.set(record.name, [{ exchange: record.value, priority: record.priority ?? 10 }]);
    else if (record.type === "CNAME") dns.cname.set(record.name, record.value);
    else dns.records.set(record.name, [...(dns.records.get(record.name) ?? []), record.value]);
  }
}

/**
 * A new organization with a domain (a fresh name unless given) whose tracking subdomain is `links`;
 * every record is published, the CNAME only with `cname`, and the domain checked through the API.
 */
export async function trackingTenant(dns: TxtServer, options: { cname: boolean; name?: string; publish?: boolean }) {
  const org = await createTestOrg();
  const name = options.name ?? `t-${randomUUID().slice(0, 8)}.example.com`;
  const created = await org.owner.api.post("/v1/domains", { name, tracking_subdomain: "links" });
  if (created.status !== 201) throw new Error(`POST /v1/domains: ${created.status}`);
  const records = created.body.records as PublishedRecord[];
  if (options.publish !== false) publishRecords(dns, options.cname ? records : records.filter((r) => r.purpose !== "tracking"));
  const checked = await org.owner.api.post(`/v1/domains/${created.body.id}/verify`);
  return { org, name, host: `links.${name}`, domainId: created.body.id as string, created: created.body, checked: checked.body };
}

/** Sends one email with POST /v1/emails through the sink as the relay and answers the message that arrived. */
export async function sendThroughSink(org: TestOrg, sink: SmtpSink, body: Record<string, unknown>): Promise<{ mail: ReceivedMail; id: string }> {
  const to = `reader-${randomUUID().slice(0, 8)}@example.net`;
  const created = await org.owner.api.post("/v1/emails", { to, subject: "Hello", ...body });
  if (created.status !== 201) throw new Error(`POST /v1/emails: ${created.status} ${JSON.stringify(created.body)}`);
  const sender = createSender({ organizationId: org.organizationId, relayUrl: `smtp://${sink.host}:${sink.port}` });
  await drain(sender, org.organizationId);
  sender.close();
  return { mail: sink.messages.find((m) => m.envelopeTo.includes(to))!, id: created.body.id };
}

/** The click redirects and the open pixel of a received message. */
export function trackingUrlsOf(mail: ReceivedMail): { redirects: string[]; pixel: string | undefined } {
  const html = String(mail.parsed.html);
  return { redirects: [...html.matchAll(/href="([^"]*\/t\/c\/[^"]+)"/g)].map((m) => m[1]), pixel: /<img src="([^"]*\/t\/o\/[^"]+)"/.exec(html)?.[1] };
}

export const trackingTokenOf = (url: string) => new URL(url).pathname.split("/").pop()!;
