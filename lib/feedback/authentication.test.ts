import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTxtServer, type TxtServer } from "@/lib/dns/txt-server";
import type { SmtpSink } from "@/lib/testing/smtp-sink";

// Outgoing relay mail checked the way a receiving system checks it (mailauth: DKIM, SPF, DMARC)
// against exactly the records the API tells the customer to publish. The relay is a local sink,
// so the relay's address is 127.0.0.1 and RELAY_SPF authorizes it. lib/env reads these when it
// loads: they are set before the application modules are imported.
let dns: TxtServer;
let sink: SmtpSink;
let api: typeof import("@/lib/testing/api");
let db: typeof import("@/lib/db").db;

beforeAll(async () => {
  dns = await startTxtServer();
  process.env.DNS_RESOLVER = dns.address;
  process.env.RELAY_SPF = "ip4:127.0.0.1";
  process.env.INBOUND_SMTP_HOST = "mx.platform.example";
  api = await import("@/lib/testing/api");
  db = (await import("@/lib/db")).db;
  sink = await (await import("@/lib/testing/smtp-sink")).startSmtpSink({ dsn: true });
});

afterAll(async () => {
  await sink?.close();
  await dns?.close();
});

type Rec = { type: string; name: string; value: string; priority?: number; purpose: string };

/** A DNS resolver for mailauth that answers from the published TXT records only (no check here needs another type). */
function resolverFor(records: Rec[]) {
  return async (name: string, type: string): Promise<string[][]> => {
    const key = name.toLowerCase().replace(/\.$/, "");
    const matching = records.filter((r) => r.name === key && r.type === type && type === "TXT");
    if (matching.length === 0) throw Object.assign(new Error(`no ${type} for ${name}`), { code: "ENOTFOUND" });
    return matching.map((r) => [r.value]);
  };
}

describe("outgoing mail passes the receiving side's checks", () => {
  it("DKIM (both unsubscribe headers signed), SPF of the return path and DMARC pass against the records the API returns", async () => {
    const { authenticate } = await import("mailauth");
    const { startBroadcast } = await import("@/lib/sending/fan-out");
    const { createSender } = await import("@/lib/sending/sender");
    const { drain, seedSegment } = await import("@/lib/testing/sending-fixtures");

    const org = await api.createTestOrg();
    const created = (await org.owner.api.post("/v1/domains", { name: "auth.example.com" })).body;
    const records = created.records as Rec[];
    // The customer publishes what the page shows; the verification sees it.
    for (const r of records) {
      if (r.type === "MX") dns.mx.set(r.name, [{ exchange: r.value, priority: r.priority ?? 10 }]);
      else dns.records.set(r.name, [r.value]);
    }
    const verified = (await org.owner.api.post(`/v1/domains/${created.id}/verify`)).body;
    expect(verified.records.map((r: { status: string }) => r.status)).toEqual(["verified", "verified", "verified", "verified", "verified"]);

    const { segmentId } = await seedSegment(org.organizationId, [{ first_name: "Ada", email: "ada@inbox.example.net" }]);
    const broadcast = await db.broadcast.create({
      data: {
        organization_id: org.organizationId,
        name: "Auth",
        subject: "Checked",
        from_email: "news@auth.example.com",
        from_name: "Auth News",
        html_content: "<p>Hello {{first_name}}</p>",
        status: "scheduled",
        scheduled_at: new Date(),
        sending_speed: "instant",
        segment_id: segmentId,
      },
    });
    expect(await startBroadcast(broadcast.id)).toBe("started");
    const sender = createSender({ organizationId: org.organizationId, relayUrl: `smtp://${sink.host}:${sink.port}` });
    await drain(sender, org.organizationId);
    sender.close();
    const email = await db.email.findFirstOrThrow({ where: { broadcast_id: broadcast.id } });
    const mail = sink.messages.find((m) => m.messageId === email.message_id)!;
    expect(mail.envelopeFrom.endsWith("@bounces.auth.example.com")).toBe(true);

    const result = await authenticate(mail.raw, {
      ip: "127.0.0.1",
      helo: "relay.local",
      sender: mail.envelopeFrom,
      mta: "mx.inbox.example.net",
      resolver: resolverFor(records),
    });
    const dkim = result.dkim.results[0];
    expect(dkim.status.result).toBe("pass");
    expect(dkim.signingDomain).toBe("auth.example.com");
    const signed = String(dkim.signingHeaders?.keys ?? "")
      .toLowerCase()
      .split(":")
      .map((key) => key.trim());
    for (const header of ["from", "to", "subject", "date", "message-id", "mime-version", "content-type", "list-unsubscribe", "list-unsubscribe-post"]) {
      expect(signed).toContain(header);
    }
    expect(result.spf && result.spf.status.result).toBe("pass");
    expect(result.spf && result.spf.domain).toBe("bounces.auth.example.com");
    expect(result.dmarc && result.dmarc.status.result).toBe("pass");
    expect(result.dmarc && result.dmarc.alignment.dkim.result).toBe("auth.example.com");
    expect(result.dmarc && result.dmarc.alignment.spf.result).toBe("bounces.auth.example.com");

    // A relay the SPF record does not name fails SPF, while DKIM alone still carries DMARC.
    const elsewhere = await authenticate(mail.raw, {
      ip: "198.51.100.7",
      helo: "other.local",
      sender: mail.envelopeFrom,
      mta: "mx.inbox.example.net",
      resolver: resolverFor(records),
    });
    expect(elsewhere.spf && elsewhere.spf.status.result).toBe("softfail");
    expect(elsewhere.dmarc && elsewhere.dmarc.status.result).toBe("pass");
  });

  it("signs nothing with a DKIM key whose record is not published", async () => {
    const { startBroadcast } = await import("@/lib/sending/fan-out");
    const { createSender } = await import("@/lib/sending/sender");
    const { drain, seedSegment } = await import("@/lib/testing/sending-fixtures");
    const org = await api.createTestOrg();
    const created = (await org.owner.api.post("/v1/domains", { name: "unsigned.example.com" })).body;
    const ownership = (created.records as Rec[]).find((r) => r.purpose === "ownership")!;
    dns.records.set(ownership.name, [ownership.value]);
    expect((await org.owner.api.post(`/v1/domains/${created.id}/verify`)).body).toMatchObject({ status: "verified", dkim_signing: false });
    const { segmentId } = await seedSegment(org.organizationId, [{ first_name: "Bo" }]);
    const broadcast = await db.broadcast.create({
      data: {
        organization_id: org.organizationId,
        name: "Unsigned",
        subject: "Hi",
        from_email: "news@unsigned.example.com",
        html_content: "<p>Hi</p>",
        status: "scheduled",
        scheduled_at: new Date(),
        sending_speed: "instant",
        segment_id: segmentId,
      },
    });
    await startBroadcast(broadcast.id);
    const sender = createSender({ organizationId: org.organizationId, relayUrl: `smtp://${sink.host}:${sink.port}` });
    await drain(sender, org.organizationId);
    sender.close();
    const email = await db.email.findFirstOrThrow({ where: { broadcast_id: broadcast.id } });
    const mail = sink.messages.find((m) => m.messageId === email.message_id)!;
    expect(mail.parsed.headerLines.some((h) => h.key === "dkim-signature")).toBe(false);
    // Nor a VERP return path that is not published: the From address stays the envelope sender.
    expect(mail.envelopeFrom).toBe("news@unsigned.example.com");
  });
});
