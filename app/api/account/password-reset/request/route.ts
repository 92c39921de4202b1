import { publicAccountRoute } from "@/lib/api/account-route";
import { passwordResetRequestInput } from "@/lib/schemas/accounts";
import { requestPasswordReset } from "@/lib/services/accounts";

export const POST = publicAccountRoute({ body: passwordResetRequestInput }, ({ body }) => requestPasswordReset(body.email));
