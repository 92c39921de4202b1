import { env } from "@/lib/env";

// The baseline of `npm run bench`: what the framework alone answers per second from this build.
// Constant JSON, no authentication, no database. Only a server the benchmark started serves it.
export const dynamic = "force-dynamic";

export function GET() {
  if (!env.benchRoutes) return Response.json({ error: "Not found", code: "NOT_FOUND" }, { status: 404 });
  return Response.json({ ok: true });
}
