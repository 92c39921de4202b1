import { accountRoute } from "@/lib/api/account-route";
import { changePasswordInput } from "@/lib/schemas/accounts";
import { changePassword } from "@/lib/services/accounts";

export const POST = accountRoute({ body: changePasswordInput }, ({ user, body, ip }) => changePassword(user.id, body, ip));
