import { randomUUID } from "node:crypto";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { safeCallbackUrl } from "@/lib/client/callback-url";
import { env } from "@/lib/env";
import { clientIp } from "@/lib/net/client-ip";
import { signInWithPassword } from "@/lib/services/accounts";
import { liveSession, revokeSession } from "./session-state";
import { SIGN_IN_ERRORS } from "./sign-in-errors";

export const authOptions: NextAuthOptions = {
  secret: env.authSecret,
  session: { strategy: "jwt", maxAge: 30 * 24 * 60 * 60 },
  pages: { signIn: "/sign-in" },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
        code: { label: "Two-factor code", type: "text" },
      },
      async authorize(credentials, req) {
        if (!credentials?.email || !credentials.password) return null;
        if (credentials.email.length > 320 || credentials.password.length > 200 || (credentials.code?.length ?? 0) > 40) return null;
        const result = await signInWithPassword({
          email: credentials.email,
          password: credentials.password,
          code: credentials.code,
          ip: clientIp(req?.headers),
        });
        if (result.ok) return { id: result.user.id, email: result.user.email, name: result.user.name, sessionVersion: result.user.session_version };
        // next-auth hands a thrown message to the form as `error`; the form words it.
        if (result.reason === "throttled") throw new Error(`${SIGN_IN_ERRORS.throttled}:${result.retryAfterSeconds}`);
        if (result.reason === "two_factor_required") throw new Error(SIGN_IN_ERRORS.twoFactorRequired);
        if (result.reason === "invalid_code") throw new Error(SIGN_IN_ERRORS.invalidCode);
        return null;
      },
    }),
  ],
  events: {
    // "Sign out" ends this session on the server too, not only in this browser's cookie jar.
    async signOut({ token }) {
      await revokeSession(token?.sid, token?.exp);
    },
  },
  callbacks: {
    // next-auth's own callbackUrl (cookie and redirect) follows the same rule as our pages.
    redirect({ url, baseUrl }) {
      const path = url.startsWith(baseUrl) ? url.slice(baseUrl.length) || "/" : url;
      return `${baseUrl}${safeCallbackUrl(path)}`;
    },
    // Runs on every read of the session through next-auth: a token whose version the user has
    // moved past (sign out everywhere, password change or reset) comes back empty: signed out.
    async jwt({ token, user }) {
      if (user) {
        token.sub = user.id;
        token.sv = (user as { sessionVersion?: number }).sessionVersion ?? 0;
        // The session's own id survives every re-encoding of the cookie, so signing out can end it.
        token.sid = randomUUID();
        return token;
      }
      if (typeof token.sub !== "string") return {};
      const claims = {
        userId: token.sub,
        sessionVersion: typeof token.sv === "number" ? token.sv : 0,
        sessionId: typeof token.sid === "string" ? token.sid : null,
      };
      if (!(await liveSession(claims).catch(() => null))) return {};
      return token;
    },
    session({ session, token }) {
      if (session.user && token.sub) (session.user as { id?: string }).id = token.sub;
      return session;
    },
  },
};
