import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTxtServer, type TxtServer } from "@/lib/dns/txt-server";

// The tracking host among a domain's records: set and changed with PUT /v1/domains/{id}, its CNAME
// checked in a real DNS server with the other records. lib/env reads the resolver when it loads.
let dns: TxtServer;
let api: typeof import("@/lib/testing/api");
let db: typeof import("@/lib/db").db;

beforeAll(async () => {
  dns = await startTxtServer();
  process.env.DNS_RESOLVER = dns.address;
  api = await import("@/lib/testing/api");
  db = (await import("@/lib/db")).db;
});

afterAll(async () => {
  await dns?.close();
});

type Rec = { type: string; name: string; value: string; purpose: string; status: string; found: string[]; priority?: number };

function publish(records: Rec[]) {
  for (const record of records) {
    if (record.type === "MX") dns.mx.set(record.name, [{ exchange: record.value, priority: record.priority ?? 10 }]);
    else if (record.type === "CNAME") dns.cname.set(record.name, record.value);
    else dns.records.set(record.name, [...(dns.records.get(record.name) ?? []), record.value]);
  }
}

const tracking = (body: { records: Rec[] }) => body.records.find((r) => r.purpose === "tracking");

async function verifiedDomain() {
  const org = await api.createTestOrg();
  const name = `d-${randomUUID().slice(0, 8)}.example.com`;
  const created = (await org.owner.api.post("/v1/domains", { name })).body;
  expect(tracking(created)).toBeUndefined();
  publish(created.records);
  await org.owner.api.post(`/v1/domains/${created.id}/verify`);
  return { org, name, id: created.id as string };
}

describe("a domain's tracking subdomain", () => {
  it("adds its CNAME to the records, verifies it with them, and starts over when it changes", async () => {
    const { org, name, id } = await verifiedDomain();
    const set = await org.owner.api.put(`/v1/domains/${id}`, { tracking_subdomain: "links" });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ tracking_subdomain: "links", tracking_active: false });
    expect(tracking(set.body)).toMatchObject({ type: "CNAME", name: `links.${name}`, value: "localhost", status: "pending", checked_at: null });

    // Something else at the name: a mismatch that shows what was found.
    dns.cname.set(`links.${name}`, "tracking.other-provider.example.");
    let checked = (await org.owner.api.post(`/v1/domains/${id}/verify`)).body;
    expect(tracking(checked)).toMatchObject({ status: "mismatch", found: ["tracking.other-provider.example"] });
    expect(checked.tracking_active).toBe(false);

    dns.cname.set(`links.${name}`, "LOCALHOST.");
    checked = (await org.owner.api.post(`/v1/domains/${id}/verify`)).body;
    expect(tracking(checked)).toMatchObject({ status: "verified", found: ["localhost"] });
    expect(checked.tracking_active).toBe(true);
    expect((await db.domain.findUniqueOrThrow({ where: { id } })).tracking_verified_at).toBeInstanceOf(Date);

    // The same label again changes nothing; another starts pending, whatever the old one's status.
    expect((await org.owner.api.put(`/v1/domains/${id}`, { tracking_subdomain: "LINKS" })).body.tracking_active).toBe(true);
    const moved = (await org.owner.api.put(`/v1/domains/${id}`, { tracking_subdomain: "go" })).body;
    expect(moved).toMatchObject({ tracking_subdomain: "go", tracking_active: false });
    expect(tracking(moved)).toMatchObject({ name: `go.${name}`, status: "pending", checked_at: null });
    expect((await db.domain.findUniqueOrThrow({ where: { id } })).tracking_verified_at).toBeNull();

    const removed = (await org.owner.api.put(`/v1/domains/${id}`, { tracking_subdomain: null })).body;
    expect(removed).toMatchObject({ tracking_subdomain: null, tracking_active: false });
    expect(tracking(removed)).toBeUndefined();
    expect((await org.owner.api.get("/v1/audit-log?action=domain.updated")).body.data).toHaveLength(3);
  });

  it("refuses a label that is not one DNS label, or is the return path's", async () => {
    const { org, id } = await verifiedDomain();
    for (const label of ["a.b", "-x", "", "x".repeat(64), "bounces"]) {
      const refused = await org.owner.api.put(`/v1/domains/${id}`, { tracking_subdomain: label });
      api.expectError(refused, 400, "VALIDATION_ERROR");
      expect(refused.body.details[0].path).toBe("tracking_subdomain");
    }
    const created = await org.owner.api.post("/v1/domains", {
      name: `r-${randomUUID().slice(0, 8)}.example.com`,
      return_path: "mail",
      tracking_subdomain: "mail",
    });
    api.expectError(created, 400, "VALIDATION_ERROR");
    api.expectError(await api.createTestOrg().then((other) => other.owner.api.put(`/v1/domains/${id}`, { tracking_subdomain: "t" })), 404, "NOT_FOUND");
  });

  it("never verifies a new subdomain with the CNAME of the one it replaced during the check", async () => {
    const { org, name, id } = await verifiedDomain();
    await org.owner.api.put(`/v1/domains/${id}`, { tracking_subdomain: "links" });
    dns.cname.set(`links.${name}`, "localhost");
    // The lookup of links.<name> is answered (found) only after the subdomain became `go`.
    dns.hold.set(`links.${name}`, async () => {
      expect((await org.owner.api.put(`/v1/domains/${id}`, { tracking_subdomain: "go" })).status).toBe(200);
    });
    const checked = (await org.owner.api.post(`/v1/domains/${id}/verify`)).body;
    expect(checked.tracking_subdomain).toBe("go");
    expect(tracking(checked)).toMatchObject({ name: `go.${name}`, status: "pending" });
    expect(checked.tracking_active).toBe(false);
  });
});
