import { handleOpen } from "@/lib/tracking/handlers";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ token: string }> }) {
  return handleOpen(request, (await params).token);
}
