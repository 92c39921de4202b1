import { accountRoute } from "@/lib/api/account-route";
import { startTwoFactorSetup } from "@/lib/auth/two-factor";

export const POST = accountRoute({}, ({ user }) => startTwoFactorSetup(user.id));
