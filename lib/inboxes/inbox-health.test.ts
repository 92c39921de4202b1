import net from "node:net";
import { describe, expect, it } from "vitest";
import { sealSecret } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { pollReplies } from "@/lib/replies/poll-replies";
import { createTestOrg } from "@/lib/testing/api";
import { dispatchEventsOf } from "@/lib/testing/events";
import { addInbox } from "@/lib/testing/sequence-fixtures";
import { recordInboxFailures } from "./inbox-health";

/** A port nothing listens on (taken and released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("inbox health", () => {
  it("an inbox whose polls keep failing turns error after INBOX_FAILURES_BEFORE_ERROR in a row, once, and is no longer polled", async () => {
    const { organizationId } = await createTestOrg();
    await db.webhook.create({
      data: { organization_id: organizationId, url: "https://hooks.example.com/in", events: ["inbox.failed"], secret_encrypted: "x" },
    });
    const inbox = await addInbox(organizationId, {
      imap: { host: "127.0.0.1", port: await closedPort(), username: "u", password_encrypted: sealSecret("p") },
    });
    const row = () => db.inbox.findUniqueOrThrow({ where: { id: inbox.id } });
    for (let poll = 1; poll < env.inboxFailuresBeforeError; poll++) {
      await pollReplies({ organizationIds: [organizationId], intervalMs: 0 });
      expect(await row()).toMatchObject({ status: "active", failure_count: poll, last_error: "Reading replies failed: could not connect to the IMAP server" });
    }
    await pollReplies({ organizationIds: [organizationId], intervalMs: 0 });
    expect(await row()).toMatchObject({ status: "error", failure_count: env.inboxFailuresBeforeError });
    await pollReplies({ organizationIds: [organizationId], intervalMs: 0 });
    expect((await row()).failure_count).toBe(env.inboxFailuresBeforeError);
    await dispatchEventsOf(organizationId);
    expect(await db.event.count({ where: { organization_id: organizationId, name: "inbox.failed" } })).toBe(1);
    expect(await db.webhookDelivery.count({ where: { organization_id: organizationId, event_type: "inbox.failed" } })).toBe(1);
  });

  it("turns an inbox error once, whatever number of workers record its failures at the same time", async () => {
    const { organizationId } = await createTestOrg();
    await db.webhook.create({
      data: { organization_id: organizationId, url: "https://hooks.example.com/in", events: ["inbox.failed"], secret_encrypted: "x" },
    });
    const inbox = await addInbox(organizationId);
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        db.$transaction((tx) => recordInboxFailures(tx, [{ id: inbox.id, reason: "SMTP authentication failed: 535 no", fatal: true }])),
      ),
    );
    expect(results.flat()).toHaveLength(1);
    await dispatchEventsOf(organizationId);
    expect(await db.event.count({ where: { organization_id: organizationId, name: "inbox.failed" } })).toBe(1);
    expect(await db.webhookDelivery.count({ where: { organization_id: organizationId, event_type: "inbox.failed" } })).toBe(1);
    expect(await db.inbox.findUniqueOrThrow({ where: { id: inbox.id } })).toMatchObject({
      status: "error",
      failure_count: 8,
      last_error: "SMTP authentication failed: 535 no",
    });
  });
});
