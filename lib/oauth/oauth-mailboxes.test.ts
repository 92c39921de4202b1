import { ImapFlow } from "imapflow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSecret } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import type { Inbox } from "@/lib/generated/prisma/client";
import { pollReplies } from "@/lib/replies/poll-replies";
import { startBroadcast } from "@/lib/sending/fan-out";
import { createSender } from "@/lib/sending/sender";
import { createInbox, updateInbox } from "@/lib/services/inboxes";
import { createTestOrg, expectError, sessionCookie, type TestOrg } from "@/lib/testing/api";
import { dovecotAvailable, startDovecot, type Dovecot } from "@/lib/testing/dovecot";
import { consentAt, INTROSPECTION_CLIENT, startOAuthProvider, type OAuthProvider } from "@/lib/testing/oauth-provider";
import { drain, seedSegment, sinkInbox } from "@/lib/testing/sending-fixtures";
import { dispatchEventsOf } from "@/lib/testing/events";
import { documentedPayload } from "@/lib/testing/webhook-payloads";
import { rawReply } from "@/lib/testing/sequence-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { inboxAccessToken } from "./access-token";
import { callbackUrl } from "./consent";
import { callbackRoute, startRoute } from "./consent-routes";

const MAILBOX = "rep@sales.example.com";
const PASSWORD = "delivery-only-password";

// Mail servers and a provider on loopback, as Gmail and Google would be: the SMTP server takes only
// XOAUTH2 and dovecot only XOAUTH2 for the mailbox's tokens (the password is the test's, to deliver
// replies), both asking the provider's introspection whether a token is still good.
describe.skipIf(!dovecotAvailable())("OAuth mailboxes on loopback (oidc-provider, smtp-server, dovecot)", () => {
  let provider: OAuthProvider;
  let smtp: SmtpSink;
  let dovecot: Dovecot;
  let org: TestOrg;
  let cookie: string;
  const signIns = { accepted: 0, refused: 0 };

  beforeAll(async () => {
    provider = await startOAuthProvider({ redirectUri: callbackUrl() });
    // The operator's settings, as lib/env.ts read them: Google's provider is the loopback one.
    Object.assign(env.oauthProviders.google, { clientId: provider.clientId, clientSecret: provider.clientSecret, issuer: provider.issuer });
    smtp = await startSmtpSink({
      xoauth2: async (user, token) => {
        const answer = await provider.introspect(token);
        return answer.active && answer.sub === user;
      },
      onSignIn: (accepted) => (accepted ? signIns.accepted++ : signIns.refused++),
    });
    dovecot = await startDovecot(
      { [MAILBOX]: PASSWORD },
      { oauth2IntrospectionUrl: `http://${INTROSPECTION_CLIENT.id}:${INTROSPECTION_CLIENT.secret}@127.0.0.1:${provider.port}/token/introspection` },
    );
    org = await createTestOrg();
    cookie = await sessionCookie({ userId: org.owner.userId, email: org.owner.email });
  });
  afterAll(async () => {
    await dovecot?.stop();
    await smtp?.close();
    await provider?.stop();
  });

  const bindingOf = (response: Response) => /mp_oauth=([^;]*)/.exec(response.headers.get("set-cookie") ?? "")?.[1] ?? "";

  /** The person's walk: Settings → Connect Google → the provider's sign-in and consent → back to the app. */
  async function connect(query = "name=Rep&daily_limit=200", as = cookie) {
    const started = await startRoute(new Request(`${env.appUrl}/api/inboxes/oauth/google/start?${query}`, { headers: { cookie: as } }), "google");
    expect(started.status).toBe(303);
    const binding = bindingOf(started);
    const back = await consentAt(provider, started.headers.get("location")!, MAILBOX);
    const callback = (withCookie = `${as}; mp_oauth=${binding}`) =>
      callbackRoute(new Request(`${env.appUrl}/api/inboxes/oauth/callback${back.search}`, { headers: { cookie: withCookie } }));
    return { started, back, binding, callback };
  }

  const inboxes = () => db.inbox.findMany({ where: { organization_id: org.organizationId, auth_type: "oauth2" } });
  let inbox: Inbox;

  async function deliverReply(subject: string) {
    const client = new ImapFlow({ host: dovecot.host, port: dovecot.port, secure: false, auth: { user: MAILBOX, pass: PASSWORD }, logger: false });
    await client.connect();
    await client.append("INBOX", rawReply({ from: "lead@customer.example", to: MAILBOX, subject, inReplyTo: "<nothing@example.test>" }));
    await client.logout();
  }

  it("connects a mailbox through the consent screen: the inbox comes from the ID token, its tokens sealed", async () => {
    const { started, callback } = await connect();
    const authorize = new URL(started.headers.get("location")!);
    expect(authorize.origin).toBe(provider.issuer);
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("scope")).toBe("openid email https://mail.google.com/");
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${env.appUrl}/api/inboxes/oauth/callback`);
    expect(started.headers.get("set-cookie")).toMatch(/HttpOnly; SameSite=Lax/);

    const done = await callback();
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toMatch(/^\/settings\?tab=inboxes&connected=/);
    const created = await inboxes();
    expect(created).toHaveLength(1);
    inbox = created[0];
    expect(inbox).toMatchObject({
      name: "Rep",
      daily_limit: 200,
      from_email: MAILBOX,
      auth_type: "oauth2",
      oauth_provider: "google",
      smtp_host: "smtp.gmail.com",
      smtp_port: 465,
      imap_host: "imap.gmail.com",
      imap_port: 993,
      smtp_password_encrypted: null,
      imap_password_encrypted: null,
      status: "active",
    });
    expect(inbox.sender_confirmed_at).toBeInstanceOf(Date);
    expect(inbox.oauth_refresh_token_encrypted).toMatch(/^v1\./);
    expect((await provider.introspect(openSecret(inbox.oauth_access_token_encrypted!))).active).toBe(true);

    const shown = await org.owner.api.get(`/v1/inboxes/${inbox.id}`);
    expect(shown.body).toMatchObject({ auth: { type: "oauth2", provider: "google" }, status: "active", smtp: { has_password: false } });
    expect(JSON.stringify(shown.body)).not.toContain(openSecret(inbox.oauth_refresh_token_encrypted!));
  });

  it("refuses a replayed, forged, missing or foreign state and creates nothing", async () => {
    const before = (await inboxes()).length;
    const { callback, back, binding } = await connect();
    // Another browser (no binding cookie), then another signed-in user with it: refused, and the state is spent.
    expect((await callback(cookie)).status).toBe(400);
    expect((await callback()).status).toBe(400);

    const second = await connect();
    const other = await org.addMember("admin");
    const otherCookie = await sessionCookie({ userId: other.userId, email: other.email });
    expect((await second.callback(`${otherCookie}; mp_oauth=${second.binding}`)).status).toBe(400);

    const third = await connect();
    expect((await third.callback()).status).toBe(303);
    // The same answer again: the state was used.
    expect((await third.callback()).status).toBe(400);

    const forged = new URLSearchParams(back.search);
    forged.set("state", "forged-state");
    const call = (search: string) =>
      callbackRoute(new Request(`${env.appUrl}/api/inboxes/oauth/callback?${search}`, { headers: { cookie: `${cookie}; mp_oauth=${binding}` } }));
    expect((await call(forged.toString())).status).toBe(400);
    forged.delete("state");
    expect((await call(forged.toString())).status).toBe(400);
    // Only the third consent made an inbox.
    expect(await inboxes()).toHaveLength(before + 1);
    await db.inbox.deleteMany({ where: { organization_id: org.organizationId, id: { not: inbox.id }, auth_type: "oauth2" } });
  });

  it("lets only admins and owners start, from the dashboard's session", async () => {
    const member = await org.addMember("member");
    const memberCookie = await sessionCookie({ userId: member.userId, email: member.email });
    const start = (headers: Record<string, string>) => startRoute(new Request(`${env.appUrl}/api/inboxes/oauth/google/start`, { headers }), "google");
    expect((await start({ cookie: memberCookie })).status).toBe(403);
    expect((await start({})).status).toBe(401);
    expect((await start({ cookie, "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await startRoute(new Request(`${env.appUrl}/api/inboxes/oauth/yahoo/start`, { headers: { cookie } }), "yahoo")).status).toBe(404);
  });

  it("moves to the loopback servers with PUT, which signs in to both with the token before saving", async () => {
    const wrong = await updateInbox(
      { organizationId: org.organizationId, userId: org.owner.userId, userEmail: org.owner.email, apiKeyId: null, role: "owner" },
      inbox.id,
      { smtp: { host: smtp.host, port: dovecot.port, secure: false } },
      undefined,
      true,
    ).catch((error: unknown) => error);
    expect(wrong).toMatchObject({ code: "INBOX_CONNECTION_FAILED" });
    expect((await db.inbox.findUniqueOrThrow({ where: { id: inbox.id } })).smtp_host).toBe("smtp.gmail.com");

    const refusedBefore = signIns.refused;
    const moved = await updateInbox(
      { organizationId: org.organizationId, userId: org.owner.userId, userEmail: org.owner.email, apiKeyId: null, role: "owner" },
      inbox.id,
      { smtp: { host: smtp.host, port: smtp.port, secure: false }, imap: { host: dovecot.host, port: dovecot.port, secure: false } },
      undefined,
      true,
    );
    expect(moved).toMatchObject({ smtp: { host: "127.0.0.1", port: smtp.port }, imap: { host: "127.0.0.1", port: dovecot.port }, status: "active" });
    expect(signIns.refused).toBe(refusedBefore);
    expect(expectError(await org.owner.api.put(`/v1/inboxes/${inbox.id}`, { smtp: { password: "x" } }), 400, "VALIDATION_ERROR").details?.[0].path).toBe(
      "smtp.password",
    );
    // New servers must prove the address again (sender-proof.ts): as the link mailed through them would.
    inbox = await db.inbox.update({ where: { id: inbox.id }, data: { sender_confirmed_at: new Date() } });
  });

  async function sendOne(to: string) {
    const email = await org.owner.api.post("/v1/emails", { from: MAILBOX, to, subject: "Hello", text: "Hi there", inbox_id: inbox.id });
    expect(email.status, JSON.stringify(email.body)).toBe(201);
    const sender = createSender({ organizationId: org.organizationId, relayUrl: undefined });
    await drain(sender, org.organizationId);
    await sender.close();
    return db.email.findUniqueOrThrow({ where: { id: email.body.id } });
  }

  it("sends through the XOAUTH2-only SMTP server and reads replies over IMAP with the token", async () => {
    const sent = await sendOne("lead-1@customer.example");
    expect(sent.status).toBe("sent");
    expect(smtp.messages.at(-1)).toMatchObject({ user: MAILBOX, envelopeTo: ["lead-1@customer.example"] });

    await deliverReply("Re: Hello 1");
    await pollReplies({ organizationIds: [org.organizationId], intervalMs: 0 });
    const row = await db.inbox.findUniqueOrThrow({ where: { id: inbox.id } });
    expect(row.imap_last_uid).toBe(1);
    expect(row).toMatchObject({ status: "active", last_error: null, failure_count: 0 });
    expect(provider.refreshes()).toBe(0);
  });

  it("renews a token the provider ended before its time: once, after the servers refuse it", async () => {
    // The provider drops the token; the platform still believes it good for an hour.
    await provider.revokeAccessToken(openSecret(inbox.oauth_access_token_encrypted!));
    const refusedBefore = signIns.refused;
    const sent = await sendOne("lead-2@customer.example");
    expect(sent.status).toBe("sent");
    expect(signIns.refused).toBe(refusedBefore + 1);
    expect(provider.refreshes()).toBe(1);

    // The IMAP server has the same story: the renewed token was revoked too.
    await provider.revokeAccessToken(openSecret((await db.inbox.findUniqueOrThrow({ where: { id: inbox.id } })).oauth_access_token_encrypted!));
    await deliverReply("Re: Hello 2");
    await pollReplies({ organizationIds: [org.organizationId], intervalMs: 0 });
    expect((await db.inbox.findUniqueOrThrow({ where: { id: inbox.id } })).imap_last_uid).toBe(2);
    expect(provider.refreshes()).toBe(2);
  });

  it("renews an expired token before using it, so the servers never see it", async () => {
    // The clock has passed the token's expiry (as the provider said it at issue).
    await db.inbox.update({ where: { id: inbox.id }, data: { oauth_access_token_expires_at: new Date(Date.now() - 1000) } });
    const refusedBefore = signIns.refused;
    expect((await sendOne("lead-3@customer.example")).status).toBe("sent");
    expect(signIns.refused).toBe(refusedBefore);
    expect(provider.refreshes()).toBe(3);
    await db.inbox.update({ where: { id: inbox.id }, data: { oauth_access_token_expires_at: new Date(Date.now() - 1000) } });
    await deliverReply("Re: Hello 3");
    await pollReplies({ organizationIds: [org.organizationId], intervalMs: 0 });
    expect((await db.inbox.findUniqueOrThrow({ where: { id: inbox.id } })).imap_last_uid).toBe(3);
    expect(provider.refreshes()).toBe(4);
  });

  it("renews once when several workers find the token refused at the same time (the provider rotates refresh tokens)", async () => {
    const token = openSecret((await db.inbox.findUniqueOrThrow({ where: { id: inbox.id } })).oauth_access_token_encrypted!);
    const before = provider.refreshes();
    const tokens = await Promise.all(Array.from({ length: 6 }, () => inboxAccessToken(inbox, { rejected: token })));
    expect(new Set(tokens).size).toBe(1);
    expect(tokens[0]).not.toBe(token);
    expect(provider.refreshes()).toBe(before + 1);
    // The rotated refresh token is the one stored: the grant lives on.
    await db.inbox.update({ where: { id: inbox.id }, data: { oauth_access_token_expires_at: new Date(0) } });
    await inboxAccessToken(inbox);
    expect(provider.refreshes()).toBe(before + 2);
  });

  it("a revoked grant turns the inbox error within one poll: inbox.failed, and rotation skips it", async () => {
    await db.webhook.create({
      data: { organization_id: org.organizationId, url: "https://hooks.example.com/in", events: ["inbox.failed"], secret_encrypted: "x" },
    });
    await provider.revokeGrants(MAILBOX);
    await db.inbox.update({ where: { id: inbox.id }, data: { oauth_access_token_expires_at: new Date(0) } });
    await pollReplies({ organizationIds: [org.organizationId], intervalMs: 0 });
    const failed = await db.inbox.findUniqueOrThrow({ where: { id: inbox.id } });
    expect(failed.status).toBe("error");
    expect(failed.last_error).toMatch(/refused to renew access \(invalid_grant/);
    await dispatchEventsOf(org.organizationId);
    const deliveries = await db.webhookDelivery.findMany({ where: { organization_id: org.organizationId, event_type: "inbox.failed" } });
    expect(deliveries, JSON.stringify(await db.webhookDelivery.findMany({ where: { organization_id: org.organizationId } }))).toHaveLength(1);
    expect(documentedPayload(deliveries[0].payload)).toMatchObject({ type: "inbox.failed", data: { inbox_id: inbox.id, from_email: MAILBOX } });
    expect((await org.owner.api.get(`/v1/inboxes/${inbox.id}`)).body).toMatchObject({ status: "error", failed_at: expect.any(String) });

    // The overview says so, and a broadcast of its emails says why they wait.
    const overview = await org.owner.api.get("/v1/reports/overview");
    expect(overview.body.warnings).toContainEqual(
      expect.objectContaining({ code: "INBOX_FAILED", severity: "critical", resource: expect.objectContaining({ id: inbox.id }) }),
    );
    const waiting = await org.owner.api.post("/v1/broadcasts", {
      name: "Waiting",
      subject: "Hi",
      text_content: "Hi",
      inbox_id: inbox.id,
      segment_id: (await seedSegment(org.organizationId, [{}])).segmentId,
    });
    await db.broadcast.update({ where: { id: waiting.body.id }, data: { status: "sending", started_at: new Date() } });
    await startBroadcast(waiting.body.id);
    const status = await org.owner.api.get(`/v1/broadcasts/${waiting.body.id}/status`);
    expect(status.body.reasons).toContainEqual(expect.objectContaining({ code: "INBOX_FAILED", message: expect.stringMatching(/invalid_grant/) }));
    await db.email.updateMany({ where: { broadcast_id: waiting.body.id }, data: { status: "cancelled" } });

    // Not polled again while in error.
    await pollReplies({ organizationIds: [org.organizationId], intervalMs: 0 });
    expect((await db.inbox.findUniqueOrThrow({ where: { id: inbox.id } })).failure_count).toBe(failed.failure_count);

    // A rotation over it and a healthy inbox sends everything through the healthy one.
    const other = await startSmtpSink();
    try {
      const healthy = await sinkInbox(org.organizationId, other);
      const { segmentId } = await seedSegment(org.organizationId, [{}, {}, {}, {}]);
      const created = await org.owner.api.post("/v1/broadcasts", {
        name: "Rotation",
        subject: "Hello",
        from_email: "team@acme.test",
        text_content: "Hi",
        segment_id: segmentId,
        inbox_ids: [inbox.id, healthy.id],
        sending_speed: "instant",
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      // Sending was allowed while the inbox was active; it failed since.
      await db.broadcast.update({ where: { id: created.body.id }, data: { status: "sending", started_at: new Date() } });
      await startBroadcast(created.body.id);
      const emails = await db.email.findMany({ where: { broadcast_id: created.body.id } });
      expect(emails).toHaveLength(4);
      expect(emails.every((e) => e.inbox_id === healthy.id)).toBe(true);
      const sender = createSender({ organizationId: org.organizationId, relayUrl: undefined });
      await drain(sender, org.organizationId);
      await sender.close();
      expect(other.messages).toHaveLength(4);
    } finally {
      await other.close();
    }

    // "Test" says why and leaves it in error; a reconnect mends it.
    const test = expectError(await org.owner.api.post(`/v1/inboxes/${inbox.id}/test`), 400, "INBOX_CONNECTION_FAILED");
    expect(test.error).toMatch(/invalid_grant/);
    const { callback } = await connect(`inbox_id=${inbox.id}`);
    expect((await callback()).headers.get("location")).toBe(`/settings?tab=inboxes&connected=${inbox.id}`);
    expect(await inboxes()).toHaveLength(1);
    expect(await db.inbox.findUniqueOrThrow({ where: { id: inbox.id } })).toMatchObject({ status: "active", failure_count: 0, last_error: null });
    expect((await org.owner.api.post(`/v1/inboxes/${inbox.id}/test`)).body).toMatchObject({ status: "active" });
  });

  it("tests a password inbox on save: a wrong password is 400 INBOX_CONNECTION_FAILED in the server's words", async () => {
    const strict = await startSmtpSink({ credentials: { user: "ada@acme.test", pass: "right" } });
    try {
      const ctx = { organizationId: org.organizationId, userId: org.owner.userId, userEmail: org.owner.email, apiKeyId: null, role: "owner" as const };
      const input = {
        name: "Ada",
        from_email: "ada@acme.test",
        smtp: { host: strict.host, port: strict.port, secure: false, username: "ada@acme.test", password: "wrong" },
        imap: { host: dovecot.host, port: dovecot.port, secure: false, username: MAILBOX, password: "also wrong" },
      };
      const error = await createInbox(ctx, input, undefined, true).catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: "INBOX_CONNECTION_FAILED",
        details: [
          { path: "smtp", message: expect.stringMatching(/^SMTP authentication failed: 535/) },
          { path: "imap", message: expect.stringMatching(/^the IMAP server refused the sign-in: /) },
        ],
      });
      expect(JSON.stringify(error)).not.toMatch(/ECONN|EAUTH|127\.0\.0\.1/);
      const closed = await createInbox(ctx, { ...input, smtp: { ...input.smtp, port: 1 }, imap: undefined }, undefined, true).catch((e: unknown) => e);
      expect(closed).toMatchObject({ code: "INBOX_CONNECTION_FAILED", details: [{ path: "smtp", message: "Could not connect to the SMTP server" }] });
      const made = await createInbox(
        ctx,
        { ...input, smtp: { ...input.smtp, password: "right" }, imap: { ...input.imap, password: PASSWORD } },
        undefined,
        true,
      );
      expect(made).toMatchObject({ auth: { type: "password" }, status: "active" });
    } finally {
      await strict.close();
    }
  });
});
