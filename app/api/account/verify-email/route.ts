import { publicAccountRoute } from "@/lib/api/account-route";
import { verifyEmailInput } from "@/lib/schemas/accounts";
import { verifyEmail } from "@/lib/services/accounts";

export const POST = publicAccountRoute({ body: verifyEmailInput }, ({ body, ip }) => verifyEmail(body.token, ip));
