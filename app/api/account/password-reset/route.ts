import { publicAccountRoute } from "@/lib/api/account-route";
import { resetPasswordContract } from "@/lib/contracts/account";
import { resetPassword } from "@/lib/services/accounts";

export const POST = publicAccountRoute(resetPasswordContract, ({ body, ip }) => resetPassword(body.token, body.password, ip));
