import { archivedBroadcastHtml } from "@/lib/services/public-archive";
import { sandboxedEmailPage } from "@/lib/sending/view-page";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ organizationId: string; broadcastId: string }> }) {
  const { organizationId, broadcastId } = await params;
  const html = await archivedBroadcastHtml(organizationId, broadcastId);
  if (html === null) return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  return sandboxedEmailPage(html);
}
