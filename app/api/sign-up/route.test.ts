import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { POST } from "@/app/api/sign-up/route";
import { verifyPassword } from "@/lib/auth/password";
import { db } from "@/lib/db";
import { readCapturedMail } from "@/lib/mail/captured-mail";
import { signInWithPassword } from "@/lib/services/accounts";
import { callRoute } from "@/lib/testing/accounts";

const signUp = (body: unknown) => callRoute(POST, "/api/sign-up", { body });

const newAddress = () => `signup-${randomUUID()}@example.test`;

describe("POST /api/sign-up", () => {
  it("creates an unverified user and an organization they own, and mails a verification link", async () => {
    const email = newAddress();
    const result = await signUp({ name: "Ada Lovelace", email: email.toUpperCase(), password: "correct horse", organization_name: "Engines" });
    expect(result.status).toBe(202);
    expect(result.body).toEqual({ success: true, message: expect.any(String) });
    const user = await db.user.findUniqueOrThrow({ where: { email } });
    expect(user).toMatchObject({ email, name: "Ada Lovelace", email_verified_at: null });
    expect(user.password_hash).not.toContain("correct horse");
    expect(await verifyPassword("correct horse", user.password_hash)).toBe(true);
    const signedIn = await signInWithPassword({ email: email.toUpperCase(), password: "correct horse", ip: null });
    expect(signedIn.ok && signedIn.user.id).toBe(user.id);
    expect((await signInWithPassword({ email, password: "wrong password", ip: null })).ok).toBe(false);
    const memberships = await db.membership.findMany({ where: { user_id: user.id }, include: { organization: true } });
    expect(memberships.map((m) => [m.organization.name, m.role])).toEqual([["Engines", "owner"]]);
    const [mail] = await readCapturedMail(email);
    expect(mail.subject).toBe("Verify your email address");
    expect(mail.text).toMatch(/\/verify-email\/[A-Za-z0-9_-]{43}/);
  });

  it("names the organization after the user when no name is given", async () => {
    const email = newAddress();
    expect((await signUp({ name: "Grace", email, password: "password123" })).status).toBe(202);
    const membership = await db.membership.findFirstOrThrow({ where: { user: { email } }, include: { organization: true } });
    expect(membership.organization.name).toBe("Grace's organization");
  });

  it("creates no organization for someone arriving with an invitation", async () => {
    const email = newAddress();
    const result = await signUp({ name: "Invited", email, password: "password123", invitation_token: "t".repeat(43) });
    expect(result.status).toBe(202);
    const user = await db.user.findUniqueOrThrow({ where: { email } });
    expect(await db.membership.count({ where: { user_id: user.id } })).toBe(0);
    const [mail] = await readCapturedMail(email);
    expect(mail.text).toContain(`?callbackUrl=${encodeURIComponent(`/invitations/${"t".repeat(43)}`)}`);
  });

  it("validates the body (400 with the failing fields) and creates nothing", async () => {
    const email = newAddress();
    const cases: [unknown, string][] = [
      [{ email, password: "password123" }, "name"],
      [{ name: "", email, password: "password123" }, "name"],
      [{ name: "N", email: "not-an-email", password: "password123" }, "email"],
      [{ name: "N", email, password: "short" }, "password"],
      [{ name: "N", email, password: "password123", organization_name: "x".repeat(201) }, "organization_name"],
      [{ name: "N", email, password: "password123", invitation_token: "too-short" }, "invitation_token"],
      [{ name: "a\u0000b", email, password: "password123" }, "name"],
    ];
    for (const [body, field] of cases) {
      const result = await signUp(body);
      expect(result.status, JSON.stringify(body)).toBe(400);
      expect(result.body.code).toBe("VALIDATION_ERROR");
      expect(
        result.body.details.map((d: { path: string }) => d.path),
        JSON.stringify(body),
      ).toContain(field);
    }
    const notJson = await POST(
      new Request("http://localhost/api/sign-up", {
        method: "POST",
        headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" },
        body: "{not json",
      }),
    );
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).code).toBe("VALIDATION_ERROR");
    const textPlain = await POST(
      new Request("http://localhost/api/sign-up", {
        method: "POST",
        headers: { "content-type": "text/plain", "sec-fetch-site": "same-origin" },
        body: JSON.stringify({ name: "N", email, password: "password123" }),
      }),
    );
    expect(textPlain.status).toBe(415);
    // Another site's page posting the form: refused before anything is read.
    const crossSite = await POST(
      new Request("http://localhost/api/sign-up", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "https://evil.test" },
        body: JSON.stringify({ name: "N", email, password: "password123" }),
      }),
    );
    expect(crossSite.status).toBe(403);
    expect(await db.user.count({ where: { email } })).toBe(0);
  });
});
