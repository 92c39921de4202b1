import { serveViewInBrowser } from "@/lib/sending/view-page";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ token: string }> }) {
  return serveViewInBrowser((await params).token);
}
