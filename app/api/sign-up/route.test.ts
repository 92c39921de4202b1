import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { POST } from "@/app/api/sign-up/route";
import { verifyPassword } from "@/lib/auth/password";
import { db } from "@/lib/db";
import { authenticateUser } from "@/lib/services/accounts";

async function signUp(body: unknown, raw?: string) {
  const response = await POST(
    new Request("http://localhost/api/sign-up", {
      method: "POST",
      headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" },
      body: raw ?? JSON.stringify(body),
    }),
  );
  return { status: response.status, body: await response.json() };
}

const newAddress = () => `signup-${randomUUID()}@example.test`;

describe("POST /api/sign-up", () => {
  it("creates the user and an organization they own", async () => {
    const email = newAddress();
    const result = await signUp({ name: "Ada Lovelace", email: email.toUpperCase(), password: "correct horse", organization_name: "Engines" });
    expect(result.status).toBe(201);
    expect(Object.keys(result.body).sort()).toEqual(["organization_id", "user_id"]);
    const user = await db.user.findUniqueOrThrow({ where: { id: result.body.user_id } });
    expect(user).toMatchObject({ email, name: "Ada Lovelace" });
    expect(user.password_hash).not.toContain("correct horse");
    expect(await verifyPassword("correct horse", user.password_hash)).toBe(true);
    expect((await authenticateUser(email.toUpperCase(), "correct horse"))?.id).toBe(user.id);
    expect(await authenticateUser(email, "wrong password")).toBeNull();
    const organization = await db.organization.findUniqueOrThrow({ where: { id: result.body.organization_id } });
    expect(organization.name).toBe("Engines");
    const memberships = await db.membership.findMany({ where: { user_id: user.id } });
    expect(memberships.map((m) => [m.organization_id, m.role])).toEqual([[organization.id, "owner"]]);
  });

  it("names the organization after the user when no name is given", async () => {
    const result = await signUp({ name: "Grace", email: newAddress(), password: "password123" });
    expect(result.status).toBe(201);
    expect((await db.organization.findUniqueOrThrow({ where: { id: result.body.organization_id } })).name).toBe("Grace's organization");
  });

  it("creates no organization for someone arriving with an invitation", async () => {
    const email = newAddress();
    const result = await signUp({ name: "Invited", email, password: "password123", invitation_token: "t".repeat(43) });
    expect(result.status).toBe(201);
    expect(result.body.organization_id).toBeNull();
    expect(await db.membership.count({ where: { user_id: result.body.user_id } })).toBe(0);
    expect((await db.user.findUniqueOrThrow({ where: { id: result.body.user_id } })).email).toBe(email);
  });

  it("refuses an email that is already registered (409), whatever its case", async () => {
    const email = newAddress();
    expect((await signUp({ name: "First", email, password: "password123" })).status).toBe(201);
    const again = await signUp({ name: "Second", email: email.toUpperCase(), password: "password456" });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: "CONFLICT", details: [{ path: "email", message: "is already registered" }] });
    expect(typeof again.body.error).toBe("string");
    expect(await db.user.count({ where: { email } })).toBe(1);
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
      expect(result.body.details.map((d: { path: string }) => d.path), JSON.stringify(body)).toContain(field);
    }
    const notJson = await signUp(undefined, "{not json");
    expect(notJson.status).toBe(400);
    expect(notJson.body.code).toBe("VALIDATION_ERROR");
    expect(await db.user.count({ where: { email } })).toBe(0);
  });
});
