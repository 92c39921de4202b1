import { accountRoute } from "@/lib/api/account-route";
import { signOutEverywhere } from "@/lib/services/accounts";

export const POST = accountRoute({}, ({ user, ip }) => signOutEverywhere(user.id, ip));
