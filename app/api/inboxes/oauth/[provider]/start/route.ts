import { startRoute } from "@/lib/oauth/consent-routes";

export const GET = async (request: Request, { params }: { params: Promise<{ provider: string }> }) => startRoute(request, (await params).provider);
