import { jwtVerify, SignJWT } from "jose";
import { env } from "@/lib/env";

const ISSUER = "mailplatform";
const AUDIENCE = "mailplatform:v1";

const key = () => new TextEncoder().encode(`api-key:${env.authSecret}`);

/** API keys are JWTs naming their database row; the row decides whether the key still works. */
export async function signApiKeyToken(apiKeyId: string, organizationId: string): Promise<string> {
  return new SignJWT({ org: organizationId })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setJti(apiKeyId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .sign(key());
}

export async function readApiKeyToken(token: string): Promise<{ apiKeyId: string; organizationId: string } | null> {
  try {
    const { payload } = await jwtVerify(token, key(), { issuer: ISSUER, audience: AUDIENCE, algorithms: ["HS256"] });
    if (typeof payload.jti !== "string" || typeof payload.org !== "string") return null;
    return { apiKeyId: payload.jti, organizationId: payload.org };
  } catch {
    return null;
  }
}
