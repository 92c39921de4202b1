import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { outboundPolicy } from "@/lib/net/outbound-policy";
import { createSender } from "@/lib/sending/sender";
import { createInbox } from "@/lib/services/inboxes";
import { createTestOrg, expectError, type TestOrg } from "@/lib/testing/api";
import { seedSegment, verifiedDomain } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { ownerContext } from "./trust-fixtures";

// An organization sending as a domain it has not proven: another organization's verified domain, or
// any third party's. The platform's relay signs and sends for verified domains, so an inbox pointed
// at the relay must be refused, and an inbox sends only once its from address is proven.

describe("sending as someone else's domain", () => {
  let attacker: TestOrg;
  let victim: TestOrg;
  let relay: SmtpSink;
  let attackersServer: SmtpSink;

  beforeAll(async () => {
    attacker = await createTestOrg("Attacker");
    victim = await createTestOrg("Victim");
    await verifiedDomain(victim.organizationId, "victim.example");
    await verifiedDomain(attacker.organizationId, "attacker.example");
    relay = await startSmtpSink();
    attackersServer = await startSmtpSink();
  });
  afterAll(async () => {
    await relay.close();
    await attackersServer.close();
  });

  it("refuses an inbox pointed at the platform's relay, by any name of it, even where loopback is admitted", async () => {
    const relayUrl = `smtp://127.0.0.1:${relay.port}`;
    // The test suite's own admission of loopback (`127.0.0.1:*`) does not open the relay.
    const policy = outboundPolicy({ allowedPrivateHosts: ["127.0.0.1:*", "[::1]:*"], reservedRelayUrls: [relayUrl] });
    for (const host of ["127.0.0.1", "127.1", "localhost", "0x7f000001"]) {
      const creating = createInbox(
        ownerContext(attacker),
        { name: "Relay", from_email: "ceo@victim.example", smtp: { host, port: relay.port, secure: false } },
        policy,
      );
      await expect(creating, host).rejects.toMatchObject({
        code: "VALIDATION_ERROR",
        details: [{ path: "smtp.host", message: expect.stringContaining("relay") }],
      });
    }
    // Only the operator's explicit listing of that host:port opens it.
    const listed = outboundPolicy({ allowedPrivateHosts: [`127.0.0.1:${relay.port}`], reservedRelayUrls: [relayUrl] });
    await expect(
      createInbox(
        ownerContext(attacker),
        { name: "Listed", from_email: "me@attacker.example", smtp: { host: "127.0.0.1", port: relay.port, secure: false } },
        listed,
      ),
    ).resolves.toMatchObject({ smtp: { port: relay.port } });
  });

  it("never sends as another organization's domain through an inbox", async () => {
    // The inbox itself is accepted (its server is fine) but is unverified: its address is the victim's.
    const created = await attacker.owner.api.post("/v1/inboxes", {
      name: "Spoof",
      from_email: "ceo@victim.example",
      smtp: { host: attackersServer.host, port: attackersServer.port, secure: false },
    });
    expect(created.status).toBe(201);
    expect(created.body.verification).toMatchObject({ status: "unverified", method: null });
    const inboxId = created.body.id as string;

    const email = await attacker.owner.api.post("/v1/emails", { to: "target@example.test", subject: "Wire", text: "Pay", inbox_id: inboxId });
    expect(expectError(email, 400, "INBOX_NOT_VERIFIED").details).toEqual([{ path: "inbox_id", message: expect.any(String) }]);
    const broadcast = await attacker.owner.api.post("/v1/broadcasts", { name: "B", subject: "S", inbox_id: inboxId });
    expectError(broadcast, 400, "INBOX_NOT_VERIFIED");
    const rotation = await attacker.owner.api.post("/v1/broadcasts", { name: "B", subject: "S", from_email: "x@attacker.example", inbox_ids: [inboxId] });
    expect(expectError(rotation, 400, "INBOX_NOT_VERIFIED").details?.[0].path).toBe("inbox_ids.0");
    const template = await attacker.owner.api.post("/v1/templates", { name: "T", subject: "S", inbox_id: inboxId });
    expectError(template, 400, "INBOX_NOT_VERIFIED");

    // Nor with the victim's address given explicitly, whether through the relay, a template, or the
    // attacker's own verified inbox.
    const verified = await attacker.owner.api.post("/v1/inboxes", {
      name: "Own",
      from_email: "me@attacker.example",
      smtp: { host: attackersServer.host, port: attackersServer.port, secure: false },
    });
    expect(verified.body.verification).toMatchObject({ status: "verified", method: "domain" });
    for (const body of [
      { from: "ceo@victim.example", to: "target@example.test", subject: "Wire", text: "Pay" },
      { from: "CEO <ceo@victim.example>", to: "target@example.test", subject: "Wire", text: "Pay", inbox_id: verified.body.id },
    ]) {
      expectError(await attacker.owner.api.post("/v1/emails", body), 400, "DOMAIN_NOT_VERIFIED");
    }
    expectError(await attacker.owner.api.post("/v1/templates", { name: "T", subject: "S", from_email: "ceo@victim.example" }), 400, "DOMAIN_NOT_VERIFIED");

    // A broadcast through the verified inbox but from the victim's address cannot be sent.
    const { segmentId } = await seedSegment(attacker.organizationId, [{ email: "target@example.test" }]);
    const draft = await attacker.owner.api.post("/v1/broadcasts", {
      name: "B",
      subject: "S",
      text_content: "Pay",
      segment_id: segmentId,
      inbox_id: verified.body.id,
      from_email: "ceo@victim.example",
    });
    expect(draft.status).toBe(201);
    expectError(await attacker.owner.api.post(`/v1/broadcasts/${draft.body.id}/send`, {}), 400, "DOMAIN_NOT_VERIFIED");
    expect(await db.email.count({ where: { organization_id: attacker.organizationId } })).toBe(0);
  });

  it("the worker sends nothing through an unverified inbox, even for an email that got past the API", async () => {
    const inbox = await db.inbox.create({
      data: {
        organization_id: attacker.organizationId,
        name: "Slipped",
        from_email: "billing@victim.example",
        smtp_host: attackersServer.host,
        smtp_port: attackersServer.port,
      },
    });
    const row = await db.email.create({
      data: {
        organization_id: attacker.organizationId,
        message_id: `<slipped-${inbox.id}@victim.example>`,
        from_email: "billing@victim.example",
        to_email: "target@example.test",
        subject: "Invoice",
        text_content: "Pay",
        inbox_id: inbox.id,
        status: "queued",
      },
    });
    const sender = createSender({ organizationId: attacker.organizationId, relayUrl: undefined });
    try {
      expect(await sender.runOnce()).toBe(0);
    } finally {
      sender.close();
    }
    expect(attackersServer.messages.filter((m) => m.envelopeFrom === "billing@victim.example")).toHaveLength(0);
    expect((await db.email.findUniqueOrThrow({ where: { id: row.id } })).status).toBe("queued");
  });

  it("makes an inbox unverified again when its address or server changes", async () => {
    const { body: inbox } = await attacker.owner.api.post("/v1/inboxes", {
      name: "Proven",
      from_email: "sales@attacker-two.example",
      smtp: { host: attackersServer.host, port: attackersServer.port, secure: false, username: "sales" },
    });
    await db.inbox.update({ where: { id: inbox.id }, data: { sender_confirmed_at: new Date() } });
    expect((await attacker.owner.api.get(`/v1/inboxes/${inbox.id}`)).body.verification).toMatchObject({ status: "verified", method: "confirmation" });

    for (const change of [{ from_email: "ceo@victim.example" }, { smtp: { port: relay.port } }, { smtp: { username: "other" } }]) {
      await db.inbox.update({ where: { id: inbox.id }, data: { sender_confirmed_at: new Date() } });
      const updated = await attacker.owner.api.put(`/v1/inboxes/${inbox.id}`, change);
      expect(updated.body.verification, JSON.stringify(change)).toMatchObject({ status: "unverified", confirmed_at: null });
    }
    // Renaming it, or changing its password, proves nothing new and keeps the proof.
    await db.inbox.update({ where: { id: inbox.id }, data: { from_email: "sales@attacker-two.example", sender_confirmed_at: new Date() } });
    const renamed = await attacker.owner.api.put(`/v1/inboxes/${inbox.id}`, { name: "Renamed", smtp: { password: "new" } });
    expect(renamed.body.verification.status).toBe("verified");
  });
});
