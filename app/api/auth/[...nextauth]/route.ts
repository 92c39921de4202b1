import NextAuth from "next-auth";
import { boundedBody } from "@/lib/api/account-route";
import { authOptions } from "@/lib/auth/options";

const handler = NextAuth(authOptions);

export { handler as GET };
// next-auth reads the body itself: it gets it read under the dashboard routes' limit.
export const POST = boundedBody(handler);
