import { publicAccountRoute } from "@/lib/api/account-route";
import { passwordResetInput } from "@/lib/schemas/accounts";
import { resetPassword } from "@/lib/services/accounts";

export const POST = publicAccountRoute({ body: passwordResetInput }, ({ body, ip }) => resetPassword(body.token, body.password, ip));
