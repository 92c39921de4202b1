import { createPrivateKey, createPublicKey, sign, verify } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { openSecret } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db";
import { addDomain } from "@/lib/services/domains";
import { client, createTestOrg, expectError, randomId, request, type TestOrg } from "@/lib/testing/api";
import { domainsOperations } from "./domains";

type DnsRecord = { type: string; name: string; value: string; purpose: string; status: string; priority?: number };

describe("Domains", () => {
  let org: TestOrg;
  let other: TestOrg;
  let theirs: string;

  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
    theirs = (await other.owner.api.post("/v1/domains", { name: "theirs.example" })).body.id;
  });

  describe("POST /v1/domains", () => {
    it("adds a pending domain with its ownership, DKIM, return-path (MX and SPF) and DMARC records, each pending", async () => {
      const created = await org.owner.api.post("/v1/domains", { name: "mail.example.com" });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        id: expect.any(String),
        organization_id: org.organizationId,
        name: "mail.example.com",
        status: "pending",
        verified_at: null,
        last_checked_at: null,
      });
      const [ownership, dkim, mx, spf, dmarc] = created.body.records as DnsRecord[];
      expect(ownership).toEqual({
        type: "TXT",
        name: "_mailplatform.mail.example.com",
        value: expect.stringMatching(/^mailplatform-verification=[0-9a-f]{40}$/),
        purpose: "ownership",
        status: "pending",
        found: [],
        reason: null,
        checked_at: null,
      });
      expect(dkim).toMatchObject({ type: "TXT", name: "mp1._domainkey.mail.example.com", purpose: "dkim", status: "pending" });
      expect(mx).toMatchObject({ type: "MX", name: "bounces.mail.example.com", value: "localhost", priority: 10, purpose: "return_path", status: "pending" });
      expect(spf).toMatchObject({
        type: "TXT",
        name: "bounces.mail.example.com",
        value: expect.stringMatching(/^v=spf1\b.*~all$/),
        purpose: "return_path_spf",
      });
      expect(dmarc).toMatchObject({ type: "TXT", name: "_dmarc.mail.example.com", value: expect.stringMatching(/^v=DMARC1; p=none;/), purpose: "dmarc" });
      expect(created.body).toMatchObject({ return_path: "bounces.mail.example.com", warnings: [], dkim_signing: false });

      const publicKeyBase64 = /^v=DKIM1; k=rsa; p=([A-Za-z0-9+/=]+)$/.exec(dkim.value)?.[1];
      const publicKey = createPublicKey({ key: Buffer.from(publicKeyBase64!, "base64"), format: "der", type: "spki" });
      expect(publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
      const row = await db.domain.findUniqueOrThrow({ where: { id: created.body.id } });
      expect(row.dkim_private_key_encrypted).not.toContain("PRIVATE KEY");
      const privateKey = createPrivateKey(openSecret(row.dkim_private_key_encrypted!));
      const signature = sign("sha256", Buffer.from("hello"), privateKey);
      expect(verify("sha256", Buffer.from("hello"), publicKey, signature)).toBe(true);
      expect(JSON.stringify(created.body)).not.toContain(row.dkim_private_key_encrypted!);
    });

    it("takes another return-path label, and refuses one that is not a DNS label", async () => {
      const custom = await org.owner.api.post("/v1/domains", { name: "rp.example.com", return_path: "Mail-Back" });
      expect(custom.status).toBe(201);
      expect(custom.body.return_path).toBe("mail-back.rp.example.com");
      expect(custom.body.records.filter((r: DnsRecord) => r.name === "mail-back.rp.example.com").map((r: DnsRecord) => r.type)).toEqual(["MX", "TXT"]);
      const error = expectError(await org.owner.api.post("/v1/domains", { name: "rp2.example.com", return_path: "a.b" }), 400, "VALIDATION_ERROR");
      expect(error.details?.[0].path).toBe("return_path");
    });

    it("gives every domain its own token and key", async () => {
      const a = await org.owner.api.post("/v1/domains", { name: "a.example.net" });
      const b = await org.owner.api.post("/v1/domains", { name: "b.example.net" });
      expect(a.body.records[0].value).not.toBe(b.body.records[0].value);
      expect(a.body.records[1].value).not.toBe(b.body.records[1].value);
    });

    it("normalizes the name: spaces, case, trailing dot and international names", async () => {
      const upper = await org.owner.api.post("/v1/domains", { name: "  News.Example.ORG. " });
      expect(upper.body.name).toBe("news.example.org");
      const idn = await org.owner.api.post("/v1/domains", { name: "Bücher.example" });
      expect(idn.status).toBe(201);
      expect(idn.body.name).toBe("xn--bcher-kva.example");
      expect(idn.body.records[0].name).toBe("_mailplatform.xn--bcher-kva.example");
    });

    it("answers 409 for a domain the organization already has, however it is spelled", async () => {
      await org.owner.api.post("/v1/domains", { name: "dup.example.com" });
      const error = expectError(await org.owner.api.post("/v1/domains", { name: "DUP.example.com." }), 409, "CONFLICT");
      expect(error.details?.[0].path).toBe("name");
      expect(await db.domain.count({ where: { organization_id: org.organizationId, name: "dup.example.com" } })).toBe(1);
      const concurrent = await Promise.all([1, 2, 3].map(() => org.owner.api.post("/v1/domains", { name: "race.example.com" })));
      expect(concurrent.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    });

    it("lets two organizations add the same domain", async () => {
      const mine = await org.owner.api.post("/v1/domains", { name: "theirs.example" });
      expect(mine.status).toBe(201);
      expect(mine.body.id).not.toBe(theirs);
    });

    it("validates the name", async () => {
      for (const name of [
        "",
        "   ",
        "localhost",
        "exa mple.com",
        "-bad.example.com",
        "bad-.example.com",
        "a..example.com",
        `${"a".repeat(64)}.example.com`,
        `${"abcdefghi.".repeat(26)}com`,
        "10.0.0.1",
        "http://example.com",
        "user@example.com",
        "example.com/path",
        "exa_mple.com",
        "ex\u0000ample.com",
        42,
        null,
      ]) {
        const error = expectError(await org.owner.api.post("/v1/domains", { name }), 400, "VALIDATION_ERROR");
        expect(
          error.details?.map((d) => d.path),
          JSON.stringify(name),
        ).toEqual(["name"]);
      }
      expectError(await org.owner.api.post("/v1/domains", {}), 400, "VALIDATION_ERROR");
    });

    it("answers 401 without credential", async () => {
      expectError(await client(null).post("/v1/domains", { name: "x.example.com" }), 401, "UNAUTHORIZED");
    });
  });

  describe("addDomain (operators)", () => {
    it("adds a domain already verified and refuses invalid names", async () => {
      const added = await addDomain(org.organizationId, "Ops.Example.com", { verified: true });
      expect(added).toMatchObject({ name: "ops.example.com", status: "verified", verified_at: expect.any(Date) });
      await expect(addDomain(org.organizationId, "not a domain")).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
      await expect(addDomain(org.organizationId, "ops.example.com")).rejects.toMatchObject({ code: "CONFLICT" });
    });
  });

  describe("GET /v1/domains", () => {
    it("lists every domain newest first, or a cursor page with limit", async () => {
      const fresh = await createTestOrg();
      const made: string[] = [];
      for (const name of ["one.example", "two.example", "three.example"]) made.unshift((await fresh.owner.api.post("/v1/domains", { name })).body.id);
      const all = await fresh.owner.api.get("/v1/domains");
      expect(all.body).toMatchObject({ object: "list", has_more: false });
      expect(all.body.data.map((d: { id: string }) => d.id)).toEqual(made);
      expect(all.body.data[0].records).toHaveLength(5);
      const first = await fresh.owner.api.get("/v1/domains?limit=1");
      expect(first.body).toMatchObject({ has_more: true, data: [{ id: made[0] }] });
      const next = await fresh.owner.api.get(`/v1/domains?limit=5&after=${made[0]}`);
      expect(next.body.data.map((d: { id: string }) => d.id)).toEqual(made.slice(1));
      expect(next.body.has_more).toBe(false);
      const back = await fresh.owner.api.get(`/v1/domains?limit=1&before=${made[2]}`);
      expect(back.body).toMatchObject({ has_more: true, data: [{ id: made[1] }] });
    });

    it("returns more than a default page when no limit is given", async () => {
      const fresh = await createTestOrg();
      await db.domain.createMany({
        data: Array.from({ length: 25 }, (_, i) => ({ organization_id: fresh.organizationId, name: `d${i}.example.com`, verification_token: `t${i}` })),
      });
      const all = await fresh.owner.api.get("/v1/domains");
      expect(all.body.data).toHaveLength(25);
      expect(all.body.has_more).toBe(false);
    });

    it("answers 422 for bad pagination and 401 without credential", async () => {
      for (const query of ["limit=0", "limit=1000", "after=abc", `before=${theirs}`, `after=${randomId()}&before=${randomId()}`]) {
        const result = await org.owner.api.get(`/v1/domains?${query}`);
        expect(result.status, query).toBe(422);
        expect(result.body).toMatchObject({ name: "validation_error", statusCode: 422 });
      }
      expectError(await client(null).get("/v1/domains"), 401, "UNAUTHORIZED");
    });
  });

  describe("GET /v1/domains/{id}", () => {
    it("answers the record, 404 for missing and foreign ids, 400 for malformed, 401 without credential", async () => {
      const created = await org.owner.api.post("/v1/domains", { name: "get.example.com" });
      expect((await org.owner.api.get(`/v1/domains/${created.body.id}`)).body).toEqual(created.body);
      expectError(await org.owner.api.get(`/v1/domains/${randomId()}`), 404, "NOT_FOUND");
      expectError(await org.owner.api.get(`/v1/domains/${theirs}`), 404, "NOT_FOUND");
      expect(expectError(await org.owner.api.get("/v1/domains/example.com"), 400, "VALIDATION_ERROR").details?.[0].path).toBe("id");
      expectError(await client(null).get(`/v1/domains/${created.body.id}`), 401, "UNAUTHORIZED");
    });
  });

  describe("DELETE /v1/domains/{id}", () => {
    it("deletes the domain, after which the name can be added again", async () => {
      const created = await org.owner.api.post("/v1/domains", { name: "gone.example.com" });
      expect(await org.owner.api.delete(`/v1/domains/${created.body.id}`)).toMatchObject({ status: 200, body: { success: true } });
      expectError(await org.owner.api.get(`/v1/domains/${created.body.id}`), 404, "NOT_FOUND");
      expectError(await org.owner.api.delete(`/v1/domains/${created.body.id}`), 404, "NOT_FOUND");
      expect((await org.owner.api.post("/v1/domains", { name: "gone.example.com" })).status).toBe(201);
    });

    it("404s on foreign ids and keeps them, 400 on malformed, 401 without credential", async () => {
      expectError(await org.owner.api.delete(`/v1/domains/${theirs}`), 404, "NOT_FOUND");
      expect(await db.domain.count({ where: { id: theirs } })).toBe(1);
      expectError(await org.owner.api.delete("/v1/domains/1"), 400, "VALIDATION_ERROR");
      expectError(await client(null).delete(`/v1/domains/${theirs}`), 401, "UNAUTHORIZED");
    });
  });

  describe("credentials", () => {
    it("answers 401 to a missing or revoked credential on every domain operation, changing nothing", async () => {
      const revoked = await org.owner.api.post("/v1/api-keys", { name: "revoked" });
      expect((await org.owner.api.delete(`/v1/api-keys/${revoked.body.id}`)).body).toEqual({ success: true });
      const created = await org.owner.api.post("/v1/domains", { name: "credentials.example.com" });
      const state = () => db.domain.findMany({ where: { organization_id: org.organizationId }, orderBy: { id: "asc" } });
      const before = await state();
      for (const op of domainsOperations) {
        const path = op.path.replace("{id}", created.body.id);
        for (const token of [null, revoked.body.token as string]) {
          const result = await request(op.method, path, { token, body: op.body ? { name: "sneaky.example.com" } : undefined });
          expect(result.status, `${op.method} ${path}`).toBe(401);
          expectError(result, 401, "UNAUTHORIZED");
        }
      }
      expect(await state()).toEqual(before);
    });
  });
});
