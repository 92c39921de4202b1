import { handleTlsAsk } from "@/lib/tracking/handlers";

export const dynamic = "force-dynamic";

export const GET = handleTlsAsk;
