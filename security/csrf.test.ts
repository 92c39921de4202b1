import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as switchOrganization } from "@/app/api/session/organization/route";
import { POST as createOrganization } from "@/app/api/session/organizations/route";
import { POST as signUp } from "@/app/api/sign-up/route";
import { operations } from "@/lib/api/operations";
import { execute, matchPath } from "@/lib/api/route";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { createTestOrg, sessionCookie, type TestOrg } from "@/lib/testing/api";

// Cross-site request forgery: a page on another origin (another port, a sibling subdomain) makes the
// victim's browser send a request with the victim's cookie. The attack found was an HTML form posting
// `text/plain` whose body parsed as JSON: it invited the attacker as admin and minted an API key.

const appOrigin = new URL(env.appUrl).origin;
const sibling = new URL(env.appUrl);
sibling.port = String(Number(sibling.port || 80) + 1);
const otherPort = sibling.origin;

type Sent = { status: number; body: { code?: string } | null };

async function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Sent> {
  const url = new URL(path, env.appUrl);
  const operation = operations.find((op) => op.method === method && matchPath(op.path, url.pathname));
  if (!operation) throw new Error(`no operation for ${method} ${path}`);
  const response = await execute(operation, new Request(url, { method, headers, body }));
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** What an HTML form with enctype="text/plain" posts: `name=value`, where the attacker makes it a JSON document. */
const formBody = (json: object) => {
  const text = JSON.stringify(json);
  return `${text.slice(0, -1)},"padding":"=x"}`;
};

let org: TestOrg;
let cookie: string;
const invitesFor = (email: string) => db.invitation.count({ where: { organization_id: org.organizationId, email } });
const keysOf = () => db.apiKey.count({ where: { organization_id: org.organizationId } });

beforeAll(async () => {
  org = await createTestOrg("CSRF victim");
  cookie = await sessionCookie(org.owner);
});

describe("cross-site requests with the session cookie", () => {
  it("refuses a text/plain form from another port (415), whatever its Origin, and creates nothing", async () => {
    const attacker = `attacker-${randomUUID()}@evil.test`;
    const keys = await keysOf();
    for (const origin of [otherPort, appOrigin]) {
      const invite = await send("POST", "/v1/invitations", { cookie, origin, "content-type": "text/plain" }, formBody({ email: attacker, role: "admin" }));
      expect(invite.status).toBe(415);
      expect(invite.body?.code).toBe("UNSUPPORTED_MEDIA_TYPE");
      const key = await send("POST", "/v1/api-keys", { cookie, origin, "content-type": "text/plain;charset=UTF-8" }, formBody({ name: "stolen" }));
      expect(key.status).toBe(415);
      // The other types a form can send without a CORS preflight.
      for (const type of ["application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
        expect((await send("POST", "/v1/invitations", { cookie, origin, "content-type": type }, `email=${attacker}&role=admin`)).status).toBe(415);
      }
    }
    // A body with no Content-Type at all is refused too.
    expect((await send("POST", "/v1/api-keys", { cookie, origin: appOrigin, "content-length": "17" }, '{"name":"stolen"}')).status).toBe(415);
    expect(await invitesFor(attacker)).toBe(0);
    expect(await keysOf()).toBe(keys);
  });

  it("refuses a JSON write (403) with a foreign Origin or none, and creates nothing", async () => {
    const attacker = `attacker-${randomUUID()}@evil.test`;
    const json = JSON.stringify({ email: attacker, role: "admin" });
    const cases: Record<string, string>[] = [
      { origin: otherPort },
      { origin: "https://evil.test" },
      { origin: "null" },
      { origin: otherPort, "sec-fetch-site": "same-site" },
      { "sec-fetch-site": "cross-site" },
      {},
    ];
    for (const extra of cases) {
      const result = await send("POST", "/v1/invitations", { cookie, "content-type": "application/json", ...extra }, json);
      expect(result.status, JSON.stringify(extra)).toBe(403);
      expect(result.body?.code).toBe("FORBIDDEN");
    }
    const id = (await db.apiKey.findFirstOrThrow({ where: { organization_id: org.organizationId } })).id;
    expect((await send("DELETE", `/v1/api-keys/${id}`, { cookie, origin: otherPort })).status).toBe(403);
    expect(await db.apiKey.findUniqueOrThrow({ where: { id } })).toMatchObject({ revoked_at: null });
    expect(await invitesFor(attacker)).toBe(0);
  });

  it("lets the dashboard's own requests through: Origin of APP_URL, or Sec-Fetch-Site: same-origin", async () => {
    const invited = `teammate-${randomUUID()}@example.test`;
    const json = JSON.stringify({ email: invited, role: "member" });
    expect((await send("POST", "/v1/invitations", { cookie, origin: appOrigin, "content-type": "application/json; charset=utf-8" }, json)).status).toBe(201);
    expect(
      (await send("POST", "/v1/api-keys", { cookie, "sec-fetch-site": "same-origin", "content-type": "application/json" }, '{"name":"mine"}')).status,
    ).toBe(201);
    // A bodiless POST needs no Content-Type; reads need no Origin.
    const invitation = await db.invitation.findFirstOrThrow({ where: { organization_id: org.organizationId, email: invited } });
    expect((await send("POST", `/v1/invitations/${invitation.id}/resend`, { cookie, origin: appOrigin, "content-length": "0" })).status).toBe(200);
    expect((await send("GET", "/v1/invitations", { cookie })).status).toBe(200);
    expect(await invitesFor(invited)).toBe(1);
  });

  it("leaves API-key requests alone: no Origin needed, any Origin accepted, but the body must still be JSON", async () => {
    const authorization = `Bearer ${org.owner.token}`;
    expect((await send("POST", "/v1/api-keys", { authorization, "content-type": "application/json" }, '{"name":"ci"}')).status).toBe(201);
    expect(
      (await send("POST", "/v1/api-keys", { authorization, origin: "https://elsewhere.test", "content-type": "application/json" }, '{"name":"ci"}')).status,
    ).toBe(201);
    expect((await send("POST", "/v1/api-keys", { authorization, "content-type": "text/plain" }, '{"name":"ci"}')).status).toBe(415);
  });
});

describe("the dashboard's routes outside /v1", () => {
  const call = async (handler: (request: Request) => Promise<Response>, path: string, headers: Record<string, string>, body: string) => {
    const response = await handler(new Request(new URL(path, env.appUrl), { method: "POST", headers, body }));
    return { status: response.status, body: (await response.json()) as { code?: string } };
  };

  it("refuses cross-site and non-JSON switches of organization, new organizations and sign-ups", async () => {
    const switchBody = JSON.stringify({ organization_id: org.organizationId });
    expect(
      (await call(switchOrganization, "/api/session/organization", { cookie, origin: otherPort, "content-type": "application/json" }, switchBody)).status,
    ).toBe(403);
    expect((await call(switchOrganization, "/api/session/organization", { cookie, origin: appOrigin, "content-type": "text/plain" }, switchBody)).status).toBe(
      415,
    );
    expect(
      (await call(switchOrganization, "/api/session/organization", { cookie, origin: appOrigin, "content-type": "application/json" }, switchBody)).status,
    ).toBe(200);

    const before = await db.membership.count({ where: { user_id: org.owner.userId } });
    expect(
      (await call(createOrganization, "/api/session/organizations", { cookie, origin: otherPort, "content-type": "application/json" }, '{"name":"Planted"}'))
        .status,
    ).toBe(403);
    expect(
      (await call(createOrganization, "/api/session/organizations", { cookie, origin: appOrigin, "content-type": "text/plain" }, '{"name":"Planted"}')).status,
    ).toBe(415);
    expect(await db.membership.count({ where: { user_id: org.owner.userId } })).toBe(before);

    const email = `planted-${randomUUID()}@example.test`;
    const signUpBody = JSON.stringify({ name: "Planted", email, password: "password123" });
    expect((await call(signUp, "/api/sign-up", { origin: otherPort, "content-type": "application/json" }, signUpBody)).status).toBe(403);
    expect((await call(signUp, "/api/sign-up", { origin: appOrigin, "content-type": "text/plain" }, signUpBody)).status).toBe(415);
    expect(await db.user.count({ where: { email } })).toBe(0);
  });
});
