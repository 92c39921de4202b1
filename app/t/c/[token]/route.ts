import { handleClick } from "@/lib/tracking/handlers";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ token: string }> }) {
  return handleClick(request, (await params).token);
}
