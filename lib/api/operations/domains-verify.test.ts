import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTxtServer, type TxtServer } from "@/lib/dns/txt-server";

// The resolver address is read from the environment when lib/env loads, so the DNS server starts
// first and the application modules are imported after it.
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

describe("POST /v1/domains/{id}/verify", () => {
  type Org = Awaited<ReturnType<typeof api.createTestOrg>>;
  let org: Org;
  let other: Org;

  beforeAll(async () => {
    org = await api.createTestOrg();
    other = await api.createTestOrg();
  });

  const addDomain = async (owner: Org, name: string) => {
    const created = await owner.owner.api.post("/v1/domains", { name });
    return { id: created.body.id as string, expected: created.body.records[0].value as string };
  };

  it("keeps the domain pending and says why when the record is missing", async () => {
    const { id, expected } = await addDomain(org, "missing.example.com");
    const result = await org.owner.api.post(`/v1/domains/${id}/verify`);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({
      id,
      status: "pending",
      verified_at: null,
      last_checked_at: expect.any(String),
      verification: { found: false, checked_name: "_mailplatform.missing.example.com", expected_value: expected, reason: "the name does not exist in DNS" },
    });
    dns.records.set("_mailplatform.missing.example.com", []);
    const empty = await org.owner.api.post(`/v1/domains/${id}/verify`);
    expect(empty.body.verification.reason).toBe("no TXT record found");
    expect(Date.parse(empty.body.last_checked_at)).toBeGreaterThanOrEqual(Date.parse(result.body.last_checked_at));
  });

  it("keeps the domain pending when the TXT records hold other values", async () => {
    const { id } = await addDomain(org, "wrong.example.com");
    dns.records.set("_mailplatform.wrong.example.com", ["mailplatform-verification=somebody-elses-token", "v=spf1 -all"]);
    const result = await org.owner.api.post(`/v1/domains/${id}/verify`);
    expect(result.body.status).toBe("pending");
    expect(result.body.verification).toMatchObject({ found: false, reason: "TXT records were found, but none has the expected value" });
  });

  it("verifies the domain when the ownership record is published, among others and split into strings", async () => {
    const { id, expected } = await addDomain(org, "good.example.com");
    const split = [expected.slice(0, 20), expected.slice(20)];
    dns.records.set("_mailplatform.good.example.com", ["google-site-verification=abc", split, `padding=${"x".repeat(300)}`]);
    const result = await org.owner.api.post(`/v1/domains/${id}/verify`);
    expect(result.body).toMatchObject({
      status: "verified",
      verified_at: expect.any(String),
      verification: { found: true, reason: null },
    });
    expect((await org.owner.api.get(`/v1/domains/${id}`)).body.status).toBe("verified");

    // Once verified, a later failed check does not take it away, nor move the verification time.
    dns.records.delete("_mailplatform.good.example.com");
    const again = await org.owner.api.post(`/v1/domains/${id}/verify`);
    expect(again.body).toMatchObject({ status: "verified", verified_at: result.body.verified_at, verification: { found: false } });
  });

  it("reports a lookup that times out and keeps the domain pending", async () => {
    const { id } = await addDomain(org, "slow.example.com");
    dns.silent.add("_mailplatform.slow.example.com");
    const result = await org.owner.api.post(`/v1/domains/${id}/verify`);
    expect(result.body).toMatchObject({ status: "pending", verification: { found: false, reason: "the DNS lookup timed out" } });
  });

  it("lets a verified domain pass the sender check of templates and broadcasts", async () => {
    const { id, expected } = await addDomain(org, "sender.example.com");
    dns.records.set("_mailplatform.sender.example.com", [expected]);
    const { assertVerifiedSenderDomain } = await import("@/lib/services/sender-domains");
    const ctx = { organizationId: org.organizationId, userId: org.owner.userId, userEmail: org.owner.email, apiKeyId: null, role: "owner" as const };
    await expect(assertVerifiedSenderDomain(ctx, "news@sender.example.com", "from_email")).rejects.toMatchObject({ code: "DOMAIN_NOT_VERIFIED" });
    await org.owner.api.post(`/v1/domains/${id}/verify`);
    await expect(assertVerifiedSenderDomain(ctx, "news@Sender.Example.com", "from_email")).resolves.toBeUndefined();
  });

  it("answers 404 for a missing or another organization's domain and leaves theirs unchecked", async () => {
    const theirs = await addDomain(other, "theirs.example.com");
    dns.records.set("_mailplatform.theirs.example.com", [theirs.expected]);
    api.expectError(await org.owner.api.post(`/v1/domains/${theirs.id}/verify`), 404, "NOT_FOUND");
    expect(await db.domain.findUniqueOrThrow({ where: { id: theirs.id } })).toMatchObject({ status: "pending", last_checked_at: null });
    api.expectError(await org.owner.api.post(`/v1/domains/${api.randomId()}/verify`), 404, "NOT_FOUND");
    const error = api.expectError(await org.owner.api.post("/v1/domains/nope/verify"), 400, "VALIDATION_ERROR");
    expect(error.details?.[0].path).toBe("id");
  });

  it("answers 401 without credential", async () => {
    const { id } = await addDomain(org, "anon.example.com");
    api.expectError(await api.client(null).post(`/v1/domains/${id}/verify`), 401, "UNAUTHORIZED");
  });
});
