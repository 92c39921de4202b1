import { describe, expect, it } from "vitest";
import { GET as getSession } from "@/app/api/session/route";
import { POST as changePassword } from "@/app/api/account/password/route";
import { POST as signOutEverywhere } from "@/app/api/account/sign-out-everywhere/route";
import { authOptions } from "@/lib/auth/options";
import { db } from "@/lib/db";
import { callRoute, sessionCookie, sessionToken } from "@/lib/testing/accounts";
import { createTestOrg, request } from "@/lib/testing/api";
import { hashPassword } from "@/lib/auth/password";

// Issue 8, item 9: a session was a stateless 30-day JWT, so a copied cookie kept working after
// sign-out. The token now carries the user's session version, checked on every request.
async function ownerWithPassword() {
  const org = await createTestOrg();
  await db.user.update({ where: { id: org.owner.userId }, data: { password_hash: await hashPassword("old-password-1") } });
  return org;
}

const works = async (cookie: string) => (await request("GET", "/v1/api-keys", { headers: { cookie } })).status;

describe("session revocation", () => {
  it("a copied cookie stops working after sign out everywhere, on /v1, /api/session and next-auth alike", async () => {
    const org = await ownerWithPassword();
    const copied = await sessionCookie(org.owner.userId);
    expect(await works(copied)).toBe(200);
    expect((await callRoute(getSession, "/api/session", { method: "GET", cookie: copied })).status).toBe(200);

    expect((await callRoute(signOutEverywhere, "/api/account/sign-out-everywhere", { cookie: copied })).status).toBe(200);
    expect(await works(copied)).toBe(401);
    expect((await callRoute(getSession, "/api/session", { method: "GET", cookie: copied })).status).toBe(401);
    // next-auth's own session read (useSession, /api/auth/session) empties the token.
    const stale = await authOptions.callbacks!.jwt!({ token: { sub: org.owner.userId, sv: 0 } } as never);
    expect(stale.sub).toBeUndefined();
    // A fresh sign-in carries the new version and works.
    expect(await works(await sessionCookie(org.owner.userId))).toBe(200);
    // API keys are separate credentials, revoked one by one: they keep working.
    expect((await org.owner.api.get("/v1/api-keys")).status).toBe(200);
  });

  it("a password change ends every other session", async () => {
    const org = await ownerWithPassword();
    const stolen = await sessionCookie(org.owner.userId);
    const mine = await sessionCookie(org.owner.userId);
    const wrong = await callRoute(changePassword, "/api/account/password", {
      cookie: mine,
      body: { current_password: "nope", new_password: "new-password-2" },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe("INVALID_PASSWORD");
    expect(await works(stolen)).toBe(200);

    const changed = await callRoute(changePassword, "/api/account/password", {
      cookie: mine,
      body: { current_password: "old-password-1", new_password: "new-password-2" },
    });
    expect(changed.status).toBe(200);
    expect(await works(stolen)).toBe(401);
    expect(await works(mine)).toBe(401);
  });

  it("signing out ends that session for every copy of its cookie, and no other session", async () => {
    const org = await ownerWithPassword();
    const claims = await sessionToken(org.owner.userId);
    const inBrowser = await sessionCookie(org.owner.userId, claims);
    const copied = await sessionCookie(org.owner.userId, claims);
    const otherDevice = await sessionCookie(org.owner.userId);
    expect(await works(copied)).toBe(200);

    // What next-auth runs for "Sign out" (POST /api/auth/signout) with the browser's token.
    await authOptions.events!.signOut!({ token: claims, session: undefined as never });
    expect(await works(inBrowser)).toBe(401);
    expect(await works(copied)).toBe(401);
    expect((await authOptions.callbacks!.jwt!({ token: claims } as never)).sub).toBeUndefined();
    expect(await works(otherDevice)).toBe(200);
  });
});
