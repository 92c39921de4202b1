import { describe, expect, it } from "vitest";
import { POST as changePassword } from "@/app/api/account/password/route";
import { POST as requestReset } from "@/app/api/account/password-reset/request/route";
import { POST as resetPassword } from "@/app/api/account/password-reset/route";
import { signInWithPassword } from "@/lib/services/accounts";
import { callRoute, createUser, linkTokenMailedTo, sessionCookie } from "@/lib/testing/accounts";

// Trust, second pass: a reset link mailed before a password change still worked after it, so
// whoever read that mail later (a shared inbox, a forwarded message) could undo the change.
describe("reset links", () => {
  it("stop working when the password is changed", async () => {
    const user = await createUser({ password: "first-password" });
    expect((await callRoute(requestReset, "/api/account/password-reset/request", { body: { email: user.email } })).status).toBe(200);
    const token = await linkTokenMailedTo(user.email, "reset-password");

    const cookie = await sessionCookie(user.id);
    const changed = await callRoute(changePassword, "/api/account/password", {
      cookie,
      body: { current_password: "first-password", new_password: "second-password" },
    });
    expect(changed.status).toBe(200);

    const late = await callRoute(resetPassword, "/api/account/password-reset", { body: { token, password: "attackers-password" } });
    expect(late.status).toBe(400);
    expect(late.body.code).toBe("INVALID_TOKEN");
    expect((await signInWithPassword({ email: user.email, password: "second-password", ip: null })).ok).toBe(true);
    expect((await signInWithPassword({ email: user.email, password: "attackers-password", ip: null })).ok).toBe(false);
  });
});
