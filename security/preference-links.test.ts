import { NextRequest } from "next/server";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it, vi } from "vitest";

// The preference page (/p/<token>) takes no login: whoever holds the link may change one contact's
// choices. So the link must not be forgeable, nor turn into another contact's or another purpose's,
// nor reach another organization's topics; its page must not be framed (a hidden "unsubscribe from
// everything" under a decoy) nor post anywhere else; and one link, or one client, must not write
// choices and events without bound.

type Api = typeof import("@/lib/testing/api");
let api: Api;
let db: (typeof import("@/lib/db"))["db"];
let env: (typeof import("@/lib/env"))["env"];
let page: (typeof import("@/app/p/[token]/page"))["default"];
let save: (typeof import("@/app/p/[token]/save/route"))["POST"];
let signedIds: (typeof import("@/lib/sending/signed-id"))["signedIds"];
let preferenceToken: (typeof import("@/lib/sending/preference-token"))["preferenceToken"];
let proxy: (typeof import("@/proxy"))["proxy"];
let PEER_HEADER: string;

const LIMIT = 5;

beforeAll(async () => {
  // env is read when modules load: set the allowance, then load the app afresh in this file's process.
  process.env.FORM_SUBMISSIONS_PER_MINUTE = String(LIMIT);
  vi.resetModules();
  api = await import("@/lib/testing/api");
  ({ db } = await import("@/lib/db"));
  ({ env } = await import("@/lib/env"));
  page = (await import("@/app/p/[token]/page")).default;
  save = (await import("@/app/p/[token]/save/route")).POST;
  ({ signedIds } = await import("@/lib/sending/signed-id"));
  ({ preferenceToken } = await import("@/lib/sending/preference-token"));
  ({ proxy } = await import("@/proxy"));
  ({ PEER_HEADER } = await import("@/lib/api/client-address"));
});

const open = async (token: string) => renderToStaticMarkup(await page({ params: Promise.resolve({ token }), searchParams: Promise.resolve({}) }));
const post = (token: string, form: [string, string][], headers: Record<string, string> = {}) =>
  save(
    new Request(`${env.appUrl}/p/${token}/save`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", [PEER_HEADER]: "192.0.2.10", ...headers },
      body: new URLSearchParams(form).toString(),
    }),
    { params: Promise.resolve({ token }) },
  );

describe("preference links", () => {
  it("open only the contact and the purpose they were signed for", async () => {
    const org = await api.createTestOrg();
    const alice = (await org.owner.api.post("/v1/contacts", { email: "alice@links.example" })).body.id as string;
    const bob = (await org.owner.api.post("/v1/contacts", { email: "bob@links.example" })).body.id as string;
    const token = preferenceToken(alice);
    // Bob's id with Alice's MAC: the id is what an attacker would change.
    const bytes = Buffer.from(token, "base64url");
    Buffer.from(bob.replace(/-/g, ""), "hex").copy(bytes, 0);
    const swapped = bytes.toString("base64url");
    // The same id under other purposes' keys: an unsubscribe link's, a form confirmation's, a view-in-browser link's.
    const otherPurposes = ["unsubscribe-token", "form-confirmation", "view-in-browser-token"].map((purpose) => signedIds(purpose).sign(alice));
    // Another spelling of the same bytes (base64url's last character carries two bits nobody reads).
    const last = token.at(-1)!;
    const respelled =
      token.slice(0, -1) +
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"["ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".indexOf(last) ^ 1];
    for (const bad of [swapped, ...otherPurposes, respelled, "", "..", token.slice(1)]) {
      await expect(open(bad), bad).rejects.toMatchObject({ digest: expect.stringContaining("404") });
      expect((await post(bad, [["action", "unsubscribe_all"]], { [PEER_HEADER]: `192.0.2.${Math.floor(Math.random() * 200) + 20}` })).status).toBe(404);
    }
    expect(await db.contact.count({ where: { organization_id: org.organizationId, subscribed: false } })).toBe(0);
    expect(await open(token)).toContain("alice@links.example");
  });

  it("change only the contact's own organization's topics", async () => {
    const org = await api.createTestOrg();
    const other = await api.createTestOrg();
    const mine = (await org.owner.api.post("/v1/topics", { name: "Mine", default_subscription: "opt_out" })).body.id as string;
    const theirs = (await other.owner.api.post("/v1/topics", { name: "Theirs", default_subscription: "opt_in" })).body.id as string;
    const contact = (await org.owner.api.post("/v1/contacts", { email: "carol@links.example" })).body.id as string;
    const response = await post(
      preferenceToken(contact),
      [
        ["shown", mine],
        ["shown", theirs],
        ["on", theirs],
      ],
      { [PEER_HEADER]: "192.0.2.11" },
    );
    expect(response.status).toBe(303);
    expect(await db.contactTopic.findMany({ where: { contact_id: contact }, select: { topic_id: true, subscribed: true } })).toEqual([
      { topic_id: mine, subscribed: false },
    ]);
    expect(await db.contactTopic.count({ where: { topic_id: theirs } })).toBe(0);
  });

  it("show a page no other site can frame, whose form posts only to us", async () => {
    const org = await api.createTestOrg();
    const contact = (await org.owner.api.post("/v1/contacts", { email: "dan@links.example" })).body.id as string;
    const response = proxy(new NextRequest(`${env.appUrl}/p/${preferenceToken(contact)}`));
    const policy = response.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toMatch(/form-action 'self'(;|$)/);
    // The page itself: a plain form to its own save route, no script needed.
    expect(await open(preferenceToken(contact))).toContain(`action="/p/${preferenceToken(contact)}/save"`);
  });

  it(`are saved at most FORM_SUBMISSIONS_PER_MINUTE times a minute from one client address, whatever X-Forwarded-For says`, async () => {
    const org = await api.createTestOrg();
    const topic = (await org.owner.api.post("/v1/topics", { name: "Flip", default_subscription: "opt_out" })).body.id as string;
    const contact = (await org.owner.api.post("/v1/contacts", { email: "erin@links.example" })).body.id as string;
    const token = preferenceToken(contact);
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 3; i++) {
      const form: [string, string][] =
        i % 2
          ? [["shown", topic]]
          : [
              ["shown", topic],
              ["on", topic],
            ];
      statuses.push((await post(token, form, { [PEER_HEADER]: "192.0.2.99", "x-forwarded-for": `10.0.${i}.1` })).status);
    }
    expect(statuses.filter((s) => s === 303).length).toBeLessThanOrEqual(LIMIT + 1);
    expect(statuses.at(-1)).toBe(429);
    const refused = await post(token, [["action", "unsubscribe_all"]], { [PEER_HEADER]: "192.0.2.99" });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(refused.headers.get("content-type")).toContain("text/html");
    expect(await db.contact.findUniqueOrThrow({ where: { id: contact }, select: { subscribed: true } })).toEqual({ subscribed: true });
    // Choices and events written only while allowed.
    const events = await db.event.count({ where: { contact_id: contact } });
    expect(events).toBeLessThanOrEqual(LIMIT + 1);
    // Another client is not held back.
    expect((await post(token, [["shown", topic]], { [PEER_HEADER]: "192.0.2.100" })).status).toBe(303);
  });
});
