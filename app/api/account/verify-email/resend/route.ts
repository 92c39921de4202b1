import { accountRoute } from "@/lib/api/account-route";
import { resendVerification } from "@/lib/services/accounts";

export const POST = accountRoute({}, ({ user }) => resendVerification(user.id));
