import { accountRoute } from "@/lib/api/account-route";
import { disableTwoFactorInput } from "@/lib/schemas/accounts";
import { turnOffTwoFactor } from "@/lib/services/accounts";

export const POST = accountRoute({ body: disableTwoFactorInput }, ({ user, body, ip }) => turnOffTwoFactor(user.id, body.password, ip));
