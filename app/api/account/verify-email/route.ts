import { publicAccountRoute } from "@/lib/api/account-route";
import { verifyEmailContract } from "@/lib/contracts/account";
import { verifyEmail } from "@/lib/services/accounts";

export const POST = publicAccountRoute(verifyEmailContract, ({ body, ip }) => verifyEmail(body.token, ip));
