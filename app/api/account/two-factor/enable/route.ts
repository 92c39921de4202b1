import { accountRoute } from "@/lib/api/account-route";
import { twoFactorCodeInput } from "@/lib/schemas/accounts";
import { turnOnTwoFactor } from "@/lib/services/accounts";

export const POST = accountRoute({ body: twoFactorCodeInput }, ({ user, body, ip }) => turnOnTwoFactor(user.id, body.code, ip));
