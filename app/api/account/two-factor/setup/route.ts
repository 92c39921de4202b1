import { accountRoute } from "@/lib/api/account-route";
import { startTwoFactorSetup } from "@/lib/auth/two-factor";
import { twoFactorSetupContract } from "@/lib/contracts/account";

export const POST = accountRoute(twoFactorSetupContract, ({ user }) => startTwoFactorSetup(user.id));
