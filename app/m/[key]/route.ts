import { serveMedia } from "@/lib/media/serve";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ key: string }> }) {
  return serveMedia((await params).key);
}
