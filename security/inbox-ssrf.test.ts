import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { outboundPolicy, RefusedDestinationError } from "@/lib/net/outbound-policy";
import { pollInbox } from "@/lib/replies/poll-replies";
import { createSender } from "@/lib/sending/sender";
import { createInbox, updateInbox } from "@/lib/services/inboxes";
import { createTestOrg, expectError, type TestOrg } from "@/lib/testing/api";
import { verifiedDomain } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { fakeResolver, inboxInput, ownerContext } from "./trust-fixtures";

// An inbox's SMTP and IMAP servers are the tenant's choice, and the worker connects to them: without
// a policy an organization could point them at the platform's own network and use the worker to
// reach (and, through last_error, to scan) what only the platform can reach.

const databasePort = Number(process.env.TEST_PG_PORT ?? 54339);

// Loopback in every spelling a resolver accepts, private and shared ranges, link-local with the
// cloud metadata services, and the test database's own port.
const forbiddenHosts: [host: string, port: number][] = [
  ["127.0.0.1", 587],
  ["127.1", 587],
  ["0x7f.1", 587],
  ["2130706433", 587],
  ["017700000001", 587],
  ["[::1]", 587],
  ["::1", 587],
  ["[::ffff:127.0.0.1]", 587],
  ["::ffff:7f00:1", 587],
  ["localhost", 587],
  ["LOCALHOST.", 587],
  ["mail.localhost", 587],
  ["0.0.0.0", 587],
  ["127.0.0.1", databasePort],
  ["10.0.0.5", 25],
  ["172.16.3.4", 25],
  ["192.168.1.10", 25],
  ["100.64.0.1", 25],
  ["100.100.100.200", 80],
  ["169.254.169.254", 80],
  ["fd00:ec2::254", 80],
  ["fe80::1", 25],
  ["64:ff9b::a9fe:a9fe", 80],
  ["2002:7f00:1::1", 25],
  ["postgres", 5432],
];

// The production policy (nothing private admitted), with a resolver that makes every name public, so
// only what the policy itself refuses is refused and no test waits on this machine's DNS.
const strictPolicy = outboundPolicy({ lookup: async () => [{ address: "93.184.216.34", family: 4 }] });

describe("SSRF through inbox settings", () => {
  let org: TestOrg;
  let sink: SmtpSink;

  beforeAll(async () => {
    org = await createTestOrg("Attacker");
    sink = await startSmtpSink();
  });
  afterAll(() => sink.close());

  it.each(forbiddenHosts)("refuses %s:%i as an SMTP or IMAP server when saved, under the production policy", async (host, port) => {
    const ctx = ownerContext(org);
    const smtp = createInbox(ctx, inboxInput(host, port), strictPolicy);
    await expect(smtp).rejects.toMatchObject({ code: "VALIDATION_ERROR", details: [{ path: "smtp.host" }] });

    const imap = createInbox(ctx, { ...inboxInput("smtp.example.com"), imap: { host, port, secure: false, username: "u", password: "p" } }, strictPolicy);
    await expect(imap).rejects.toMatchObject({ code: "VALIDATION_ERROR", details: [{ path: "imap.host" }] });

    // Nor by editing an inbox that was fine.
    const fine = await createInbox(ctx, inboxInput("smtp.example.com"), strictPolicy);
    await expect(updateInbox(ctx, fine.id, { smtp: { host, port } }, strictPolicy)).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    expect((await db.inbox.findUniqueOrThrow({ where: { id: fine.id } })).smtp_host).toBe("smtp.example.com");
    // The message names no address: what a name resolves to stays the platform's business.
    const error: unknown = await createInbox(ctx, inboxInput(host, port), strictPolicy).catch((e: unknown) => e);
    expect(JSON.stringify((error as { details: unknown }).details)).not.toMatch(/127\.0\.0\.1|::1|169\.254|10\.0\.0/);
  });

  it("refuses private, metadata and CGNAT servers through the API as configured (loopback is admitted only for the test suite's sinks)", async () => {
    for (const host of ["10.0.0.5", "169.254.169.254", "100.64.0.1", "fd00:ec2::254", "192.168.1.10"]) {
      const answer = await org.owner.api.post("/v1/inboxes", inboxInput(host, 25));
      expect(expectError(answer, 400, "VALIDATION_ERROR").details).toEqual([{ path: "smtp.host", message: expect.stringContaining("public address") }]);
    }
    expect(await db.inbox.count({ where: { organization_id: org.organizationId, smtp_host: { in: ["10.0.0.5", "169.254.169.254"] } } })).toBe(0);
  });

  it("refuses a name that resolves to loopback or a private address, or to any such address among public ones", async () => {
    const { lookup } = fakeResolver(
      (name) =>
        ({ "loopback.example.com": ["127.0.0.1"], "metadata.example.com": ["169.254.169.254"], "mixed.example.com": ["93.184.216.34", "10.1.1.1"] })[name] ?? [
          "93.184.216.34",
        ],
    );
    const policy = outboundPolicy({ lookup });
    for (const host of ["loopback.example.com", "metadata.example.com", "mixed.example.com"]) {
      await expect(createInbox(ownerContext(org), inboxInput(host), policy), host).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    }
    await expect(createInbox(ownerContext(org), inboxInput("public.example.com"), policy)).resolves.toMatchObject({ smtp: { host: "public.example.com" } });
  });

  describe("DNS rebinding: a name public when saved and loopback when connecting", () => {
    // The resolver answers a public address to the first lookup (the save) and the sink's loopback
    // address to every later one (the worker's connection).
    const rebinding = () => fakeResolver((name, call) => (name === "rebind.example.com" ? [call === 0 ? "93.184.216.34" : "127.0.0.1"] : []));

    async function inboxAndEmail(policy: ReturnType<typeof outboundPolicy>) {
      const organization = await createTestOrg("Rebinder");
      await verifiedDomain(organization.organizationId, "rebinder.example");
      const inbox = await createInbox(
        ownerContext(organization),
        { name: "Rebinding", from_email: "me@rebinder.example", smtp: { host: "rebind.example.com", port: sink.port, secure: false } },
        policy,
      );
      const answer = await organization.owner.api.post("/v1/emails", { to: "victim@example.test", subject: "Hi", text: "Hi", inbox_id: inbox.id });
      expect(answer.status).toBe(201);
      return { organizationId: organization.organizationId, inboxId: inbox.id, emailId: answer.body.id as string };
    }

    it("checks the address again when connecting, and never reaches the loopback sink", async () => {
      const { lookup, calls } = rebinding();
      const policy = outboundPolicy({ lookup });
      const { organizationId, inboxId, emailId } = await inboxAndEmail(policy);
      const before = sink.messages.length;
      const sender = createSender({ organizationId, policy, relayUrl: undefined });
      try {
        await sender.runOnce();
      } finally {
        sender.close();
      }
      expect(calls.get("rebind.example.com")).toBeGreaterThanOrEqual(2);
      expect(sink.messages.length).toBe(before);
      const email = await db.email.findUniqueOrThrow({ where: { id: emailId } });
      expect(email).toMatchObject({ status: "queued", last_error: "Could not connect to the SMTP server" });
      expect((await db.inbox.findUniqueOrThrow({ where: { id: inboxId } })).last_error).toBe("Could not connect to the SMTP server");
    });

    it("connects to the very address it checked (control: the same resolver, loopback admitted, reaches the sink)", async () => {
      const { lookup } = rebinding();
      const policy = outboundPolicy({ lookup, allowedPrivateHosts: ["127.0.0.1:*"] });
      const { organizationId, emailId } = await inboxAndEmail(policy);
      const sender = createSender({ organizationId, policy, relayUrl: undefined });
      try {
        await sender.runOnce();
      } finally {
        sender.close();
      }
      expect((await db.email.findUniqueOrThrow({ where: { id: emailId } })).status).toBe("sent");
      expect(sink.messages.some((m) => m.envelopeTo.includes("victim@example.test"))).toBe(true);
    });

    it("does the same for IMAP: the poller refuses to connect", async () => {
      const { lookup } = rebinding();
      const policy = outboundPolicy({ lookup });
      const inbox = await createInbox(
        ownerContext(org),
        { ...inboxInput("smtp.example.com"), imap: { host: "rebind.example.com", port: 993, secure: true, username: "u", password: "p" } },
        policy,
      );
      const row = await db.inbox.findUniqueOrThrow({ where: { id: inbox.id } });
      const polling = pollInbox(
        {
          ...row,
          imap_host: row.imap_host!,
          imap_port: row.imap_port!,
          imap_secure: true,
          imap_username: row.imap_username!,
          imap_password_encrypted: row.imap_password_encrypted!,
        },
        { policy },
      );
      await expect(polling).rejects.toBeInstanceOf(RefusedDestinationError);
    });
  });
});
