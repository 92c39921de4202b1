import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTxtServer, type TxtServer } from "@/lib/dns/txt-server";
import { documentedPayload } from "@/lib/testing/webhook-payloads";

// lib/env reads the resolver and the relay's SPF when it loads: the DNS server starts first and the
// application modules are imported after it.
let dns: TxtServer;
let api: typeof import("@/lib/testing/api");
let db: typeof import("@/lib/db").db;
let domains: typeof import("./domains");
let dispatchEventsOf: typeof import("@/lib/testing/events").dispatchEventsOf;

beforeAll(async () => {
  dns = await startTxtServer();
  process.env.DNS_RESOLVER = dns.address;
  process.env.RELAY_SPF = "ip4:192.0.2.10";
  process.env.INBOUND_SMTP_HOST = "mx.platform.example";
  api = await import("@/lib/testing/api");
  db = (await import("@/lib/db")).db;
  domains = await import("./domains");
  dispatchEventsOf = (await import("@/lib/testing/events")).dispatchEventsOf;
});

afterAll(async () => {
  await dns?.close();
});

type Rec = { type: string; name: string; value: string; purpose: string; status: string; found: string[]; reason: string | null; priority?: number };

/** Publishes every record the API asks for, as a domain owner would. */
function publish(records: Rec[]) {
  for (const record of records) {
    if (record.type === "MX") dns.mx.set(record.name, [{ exchange: record.value, priority: record.priority ?? 10 }]);
    else dns.records.set(record.name, [...(dns.records.get(record.name) ?? []), record.value]);
  }
}

const byPurpose = (records: Rec[]) => Object.fromEntries(records.map((r) => [r.purpose, r])) as Record<string, Rec>;

describe("domain records", () => {
  it("verifies each published record, signs with DKIM and uses the return path only once theirs are seen", async () => {
    const org = await api.createTestOrg();
    const created = (await org.owner.api.post("/v1/domains", { name: "all.example.com" })).body;
    const records = created.records as Rec[];
    expect(byPurpose(records).return_path_spf.value).toBe("v=spf1 ip4:192.0.2.10 ~all");
    expect(byPurpose(records).return_path.value).toBe("mx.platform.example");

    // Ownership and DMARC only: verified domain, but neither signing nor VERP.
    publish(records.filter((r) => r.purpose === "ownership" || r.purpose === "dmarc"));
    let result = (await org.owner.api.post(`/v1/domains/${created.id}/verify`)).body;
    expect(result.status).toBe("verified");
    expect(Object.fromEntries((result.records as Rec[]).map((r) => [r.purpose, r.status]))).toEqual({
      ownership: "verified",
      dkim: "pending",
      return_path: "pending",
      return_path_spf: "pending",
      dmarc: "verified",
    });
    expect(result.dkim_signing).toBe(false);
    let row = await db.domain.findUniqueOrThrow({ where: { id: created.id } });
    expect(row).toMatchObject({ dkim_verified_at: null, return_path_verified_at: null });

    publish(records.filter((r) => ["dkim", "return_path", "return_path_spf"].includes(r.purpose)));
    result = (await org.owner.api.post(`/v1/domains/${created.id}/verify`)).body;
    expect((result.records as Rec[]).every((r) => r.status === "verified")).toBe(true);
    expect(result).toMatchObject({ dkim_signing: true, warnings: [] });
    row = await db.domain.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.dkim_verified_at).toBeInstanceOf(Date);
    expect(row.return_path_verified_at).toBeInstanceOf(Date);
  });

  it("shows what was found instead of ours, and warns of an SPF record that would conflict", async () => {
    const org = await api.createTestOrg();
    const created = (await org.owner.api.post("/v1/domains", { name: "spf.example.com" })).body;
    dns.records.set("bounces.spf.example.com", ["v=spf1 include:other-provider.example -all"]);
    dns.records.set("mp1._domainkey.spf.example.com", ["v=DKIM1; k=rsa; p=AAAAnotours"]);
    dns.mx.set("bounces.spf.example.com", [{ exchange: "mx.elsewhere.example", priority: 5 }]);
    const result = (await org.owner.api.post(`/v1/domains/${created.id}/verify`)).body;
    const records = byPurpose(result.records);
    expect(records.return_path_spf).toMatchObject({ status: "mismatch", found: ["v=spf1 include:other-provider.example -all"] });
    expect(records.dkim).toMatchObject({ status: "mismatch", found: ["v=DKIM1; k=rsa; p=AAAAnotours"] });
    expect(records.return_path).toMatchObject({ status: "mismatch", found: ["5 mx.elsewhere.example"] });
    expect(result.warnings).toEqual([
      expect.objectContaining({
        code: "SPF_CONFLICT",
        found: ["v=spf1 include:other-provider.example -all"],
        message: expect.stringContaining("ip4:192.0.2.10"),
      }),
    ]);

    // Two SPF records, even if one is ours, are a permanent error for receivers.
    dns.records.set("bounces.spf.example.com", ["v=spf1 include:other-provider.example -all", "v=spf1 ip4:192.0.2.10 ~all"]);
    const twice = (await org.owner.api.post(`/v1/domains/${created.id}/verify`)).body;
    expect(byPurpose(twice.records).return_path_spf.status).toBe("mismatch");
    expect(twice.warnings[0]).toMatchObject({ code: "SPF_CONFLICT", message: expect.stringContaining("2 SPF records") });

    // An SPF record of theirs that includes our relay's mechanism is fine: no second record needed.
    dns.records.set("bounces.spf.example.com", ["v=spf1 include:other-provider.example ip4:192.0.2.10 -all"]);
    const merged = (await org.owner.api.post(`/v1/domains/${created.id}/verify`)).body;
    expect(byPurpose(merged.records).return_path_spf.status).toBe("verified");
    expect(merged.warnings).toEqual([]);
  });

  it("re-checks verified domains daily: a record that disappears stops signing and is sent as domain.updated", async () => {
    const org = await api.createTestOrg();
    await db.webhook.create({
      data: { organization_id: org.organizationId, url: "https://hooks.example.com/d", events: ["domain.updated"], secret_encrypted: "x" },
    });
    const created = (await org.owner.api.post("/v1/domains", { name: "daily.example.com" })).body;
    publish(created.records);
    await org.owner.api.post(`/v1/domains/${created.id}/verify`);
    await dispatchEventsOf(org.organizationId);
    await db.webhookDelivery.deleteMany({ where: { organization_id: org.organizationId } });

    // Checked less than a day ago: not due.
    expect(await domains.recheckDomains({ organizationId: org.organizationId })).toBe(0);

    dns.records.delete("mp1._domainkey.daily.example.com");
    // A lookup that cannot tell (a timeout) does not take a verified record away.
    dns.silent.add("bounces.daily.example.com");
    await db.domain.update({ where: { id: created.id }, data: { last_checked_at: new Date(Date.now() - 25 * 60 * 60 * 1000) } });
    expect(await domains.recheckDomains({ organizationId: org.organizationId })).toBe(1);
    dns.silent.delete("bounces.daily.example.com");

    const row = await db.domain.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.dkim_verified_at).toBeNull();
    expect(row.return_path_verified_at).toBeInstanceOf(Date);
    expect(row.status).toBe("verified");
    const shown = (await org.owner.api.get(`/v1/domains/${created.id}`)).body;
    expect(byPurpose(shown.records).dkim).toMatchObject({ status: "pending", reason: "the name does not exist in DNS" });
    expect(byPurpose(shown.records).return_path_spf.status).toBe("verified");
    expect(shown.dkim_signing).toBe(false);

    await dispatchEventsOf(org.organizationId);
    const [delivery] = await db.webhookDelivery.findMany({ where: { organization_id: org.organizationId, event_type: "domain.updated" } });
    documentedPayload(delivery.payload);
    expect(delivery.payload).toMatchObject({
      type: "domain.updated",
      data: { id: created.id, name: "daily.example.com", changes: [{ purpose: "dkim", from: "verified", to: "pending" }] },
    });
  });

  it("never re-checks or touches another organization's domains when scoped", async () => {
    const org = await api.createTestOrg();
    const other = await api.createTestOrg();
    const theirs = (await other.owner.api.post("/v1/domains", { name: "scoped.example.com" })).body;
    await db.domain.update({ where: { id: theirs.id }, data: { status: "verified", last_checked_at: new Date(0) } });
    expect(await domains.recheckDomains({ organizationId: org.organizationId })).toBe(0);
    expect((await db.domain.findUniqueOrThrow({ where: { id: theirs.id } })).last_checked_at).toEqual(new Date(0));
  });
});
