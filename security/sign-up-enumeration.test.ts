import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { POST as signUp } from "@/app/api/sign-up/route";
import { db } from "@/lib/db";
import { readCapturedMail } from "@/lib/mail/captured-mail";
import { callRoute, createUser } from "@/lib/testing/accounts";

// Issue 8, item 5: sign-up said "already exists", so anyone could test which addresses have accounts.
describe("sign-up enumeration", () => {
  it("answers the same for a taken address as for a new one, and the mail tells the owner which", async () => {
    const existing = await createUser({ password: "owners-password" });
    const fresh = `new-${randomUUID()}@example.test`;
    const forFresh = await callRoute(signUp, "/api/sign-up", { body: { name: "New Person", email: fresh, password: "password-123" } });
    const forTaken = await callRoute(signUp, "/api/sign-up", { body: { name: "Attacker", email: existing.email.toUpperCase(), password: "password-456" } });

    expect(forTaken.status).toBe(forFresh.status);
    expect(forTaken.body).toEqual(forFresh.body);
    expect([...forTaken.headers.keys()].sort()).toEqual([...forFresh.headers.keys()].sort());

    // Nothing changed for the existing account; its owner is told someone tried.
    expect(await db.user.count({ where: { email: existing.email } })).toBe(1);
    const [told] = await readCapturedMail(existing.email);
    expect(told.subject).toBe("Someone tried to sign up with your address");
    expect(told.text).toMatch(/\/reset-password\/[A-Za-z0-9_-]{43}/);
    expect(told.text).toContain("/sign-in");
    const [welcomed] = await readCapturedMail(fresh);
    expect(welcomed.subject).toBe("Verify your email address");
  });

  it("does not let repeated sign-ups flood the owner of a taken address", async () => {
    const existing = await createUser();
    for (let i = 0; i < 6; i++) {
      expect((await callRoute(signUp, "/api/sign-up", { body: { name: "Attacker", email: existing.email, password: "password-456" } })).status).toBe(202);
    }
    expect((await readCapturedMail(existing.email)).length).toBe(3);
  });
});
