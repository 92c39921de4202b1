import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { addDomain } from "@/lib/services/domains";
import { client, createTestOrg, expectError } from "@/lib/testing/api";

// A key with sending_access is what an application keeps in its configuration: leaked, it must send
// mail (from its own domain, when it has one) and do nothing else (docs/SECURITY.md, "Scoped API keys").
describe("sending keys", () => {
  async function setup() {
    const org = await createTestOrg();
    const ours = `keys-${randomUUID().slice(0, 8)}.example.com`;
    const other = `other-${randomUUID().slice(0, 8)}.example.com`;
    const domain = await addDomain(org.organizationId, ours, { verified: true });
    await addDomain(org.organizationId, other, { verified: true });
    const created = await org.owner.api.post("/v1/api-keys", { name: "App", permission: "sending_access", domain_id: domain.id });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ permission: "sending_access", domain_id: domain.id });
    return { org, ours, other, domainId: domain.id, key: client(created.body.token) };
  }

  it("sends from its domain, and gets 403 on anything else: reading contacts, a From at another domain", async () => {
    const { org, ours, other, key } = await setup();
    const sent = await key.post("/v1/emails", { from: `app@${ours}`, to: "user@example.net", subject: "Hi", text: "Hello" });
    expect(sent.status).toBe(201);

    const elsewhere = expectError(
      await key.post("/v1/emails", { from: `app@${other}`, to: "user@example.net", subject: "Hi", text: "Hello" }),
      403,
      "FORBIDDEN",
    );
    expect(elsewhere.details).toEqual([{ path: "from", message: `must be at ${ours}` }]);
    const inBatch = expectError(
      await key.post("/v1/emails/batch", [
        { from: `app@${ours}`, to: "a@example.net", subject: "Hi", text: "Hello" },
        { from: `app@${other}`, to: "b@example.net", subject: "Hi", text: "Hello" },
      ]),
      403,
      "FORBIDDEN",
    );
    expect(inBatch.details).toEqual([{ path: "1.from", message: `must be at ${ours}` }]);
    expect(await db.email.count({ where: { organization_id: org.organizationId, from_email: `app@${other}` } })).toBe(0);

    for (const [method, path, body] of [
      ["GET", "/v1/contacts"],
      ["GET", "/v1/emails"],
      ["GET", `/v1/emails/${sent.body.id}`],
      ["POST", "/v1/contacts", { email: "new@example.net" }],
      ["GET", "/v1/api-keys"],
      ["POST", "/v1/api-keys", { name: "Escalate" }],
      ["GET", "/v1/domains"],
      ["POST", "/v1/webhooks", { url: "https://example.net/hook", events: ["email.sent"] }],
      ["POST", `/v1/invitations/${"x".repeat(40)}/accept`],
    ] as [string, string, unknown?][]) {
      const call = method === "GET" ? key.get(path) : key.post(path, body);
      expectError(await call, 403, "FORBIDDEN");
    }
    expect(await db.apiKey.count({ where: { organization_id: org.organizationId, name: "Escalate" } })).toBe(0);
    expect(await db.contact.count({ where: { organization_id: org.organizationId, email: "new@example.net" } })).toBe(0);
  });

  it("cancels the emails it scheduled, and no other's", async () => {
    const { org, ours, key } = await setup();
    const at = new Date(Date.now() + 3600_000).toISOString();
    const own = await key.post("/v1/emails", { from: `app@${ours}`, to: "u@example.net", subject: "Later", text: "T", scheduled_at: at });
    const owners = await org.owner.api.post("/v1/emails", { from: `team@${ours}`, to: "u@example.net", subject: "Later", text: "T", scheduled_at: at });
    expect((await key.post(`/v1/emails/${own.body.id}/cancel`)).body.status).toBe("cancelled");
    expectError(await key.post(`/v1/emails/${owners.body.id}/cancel`), 404, "NOT_FOUND");
    expect((await db.email.findUniqueOrThrow({ where: { id: owners.body.id } })).status).toBe("scheduled");
  });

  it("is full_access unless created otherwise; a domain needs sending_access and must be the organization's", async () => {
    const { org, domainId } = await setup();
    const plain = await org.owner.api.post("/v1/api-keys", { name: "Full" });
    expect(plain.body).toMatchObject({ permission: "full_access", domain_id: null });
    expect((await client(plain.body.token).get("/v1/contacts")).status).toBe(200);
    expect(expectError(await org.owner.api.post("/v1/api-keys", { name: "X", domain_id: domainId }), 400, "VALIDATION_ERROR").details?.[0].path).toBe(
      "domain_id",
    );
    const stranger = await createTestOrg();
    const theirs = await addDomain(stranger.organizationId, `theirs-${randomUUID().slice(0, 8)}.example.com`, { verified: true });
    expect(
      expectError(await org.owner.api.post("/v1/api-keys", { name: "X", permission: "sending_access", domain_id: theirs.id }), 400, "VALIDATION_ERROR")
        .details?.[0].path,
    ).toBe("domain_id");
  });

  it("goes with its domain: never widened to every domain", async () => {
    const { org, domainId, key } = await setup();
    await db.domain.delete({ where: { id: domainId } });
    expectError(await key.post("/v1/emails", { from: "app@anything.example", to: "u@example.net", subject: "S", text: "T" }), 401, "UNAUTHORIZED");
    expect(await db.apiKey.count({ where: { organization_id: org.organizationId, permission: "sending_access" } })).toBe(0);
  });
});
