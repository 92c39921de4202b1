import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { outboundPolicy } from "@/lib/net/outbound-policy";
import { createSender } from "@/lib/sending/sender";
import { sendInboxConfirmation } from "@/lib/services/inbox-confirmation";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";
import { sinkInbox } from "@/lib/testing/sending-fixtures";
import { ownerContext } from "./trust-fixtures";

// Even where the policy lets the worker connect (an operator's admitted host), what a tenant reads
// back must not say what listens on a port: "connection refused" (closed), a timeout (filtered or
// silent), or another service's banner (open) would make inbox settings a port scanner.

const databasePort = Number(process.env.TEST_PG_PORT ?? 54339);
const CONNECT_TIMEOUT_MS = 1_500;

async function listen(onConnection: (socket: net.Socket) => void): Promise<net.Server> {
  const server = net.createServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}
const portOf = (server: net.Server) => (server.address() as AddressInfo).port;

describe("inbox errors do not tell open, closed and filtered ports apart", () => {
  let org: TestOrg;
  let banner: net.Server;
  let silent: net.Server;
  let closedPort: number;
  const sockets = new Set<net.Socket>();

  beforeAll(async () => {
    org = await createTestOrg("Scanner");
    // Open, and speaks first like SSH or many another service.
    banner = await listen((socket) => socket.end("SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n"));
    // Open, and says nothing: what a filtered port looks like from here, within the timeout.
    silent = await listen((socket) => sockets.add(socket));
    const closed = await listen(() => undefined);
    closedPort = portOf(closed);
    await new Promise((resolve) => closed.close(resolve));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await Promise.all([banner, silent].map((server) => new Promise((resolve) => server.close(resolve))));
  });

  // The operator admitted loopback here so that the connections really happen.
  const policy = outboundPolicy({ allowedPrivateHosts: ["127.0.0.1:*"] });

  it("records one generic reason on the email and the inbox, whatever answered", async () => {
    const targets = { closed: closedPort, banner: portOf(banner), silent: portOf(silent), database: databasePort };
    const inboxes: Record<string, string> = {};
    for (const [kind, port] of Object.entries(targets)) {
      const inbox = await sinkInbox(org.organizationId, { host: "127.0.0.1", port } as never, { name: kind });
      inboxes[kind] = inbox.id;
      const answer = await org.owner.api.post("/v1/emails", { to: `${kind}@example.test`, subject: "Probe", text: "Probe", inbox_id: inbox.id });
      expect(answer.status).toBe(201);
    }
    const sender = createSender({ organizationId: org.organizationId, policy, relayUrl: undefined, smtpConnectTimeoutMs: CONNECT_TIMEOUT_MS });
    try {
      await sender.runOnce();
    } finally {
      sender.close();
    }

    const emails = await db.email.findMany({ where: { organization_id: org.organizationId }, select: { to_email: true, status: true, last_error: true } });
    expect(emails).toHaveLength(4);
    const reasons = new Set(emails.map((email) => email.last_error));
    expect(reasons).toEqual(new Set(["Could not connect to the SMTP server"]));
    const inboxRows = await db.inbox.findMany({ where: { id: { in: Object.values(inboxes) } }, select: { last_error: true } });
    expect(new Set(inboxRows.map((inbox) => inbox.last_error))).toEqual(new Set(["Could not connect to the SMTP server"]));
    // Whatever the API shows of them (the inbox, the email) holds no socket code, banner or port.
    for (const id of Object.values(inboxes)) {
      const shown = JSON.stringify((await org.owner.api.get(`/v1/inboxes/${id}`)).body);
      expect(shown).not.toMatch(/ECONN|ETIMEDOUT|ESOCKET|EPROTOCOL|greeting|SSH|refused/i);
    }
  });

  it("answers one generic reason when a confirmation cannot be sent", async () => {
    const messages = new Set<string>();
    for (const port of [closedPort, portOf(banner), portOf(silent), databasePort]) {
      const inbox = await sinkInbox(org.organizationId, { host: "127.0.0.1", port } as never, {
        from_email: `me-${port}@unverified.example`,
        sender_confirmed_at: null,
      });
      const failure = await sendInboxConfirmation(ownerContext(org), inbox.id, { policy, connectTimeoutMs: CONNECT_TIMEOUT_MS }).catch(
        (error: Error & { code?: string }) => error,
      );
      expect(failure).toMatchObject({ code: "MAIL_DELIVERY_FAILED" });
      messages.add((failure as Error).message);
    }
    expect([...messages]).toEqual(["The confirmation could not be sent through the inbox's SMTP server: Could not connect to the SMTP server"]);
  });
});
