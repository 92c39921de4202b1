import { accountRoute } from "@/lib/api/account-route";
import { enableTwoFactorContract } from "@/lib/contracts/account";
import { turnOnTwoFactor } from "@/lib/services/accounts";

export const POST = accountRoute(enableTwoFactorContract, ({ user, body, ip }) => turnOnTwoFactor(user.id, body, ip));
