// The baseline of `npm run bench`: what the framework alone answers per second from this build.
// Constant JSON, no authentication, no database.
export const dynamic = "force-dynamic";

export function GET() {
  return Response.json({ ok: true });
}
