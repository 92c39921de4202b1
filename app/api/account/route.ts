import { accountRoute } from "@/lib/api/account-route";
import { getAccountContract, updateProfileContract } from "@/lib/contracts/account";
import { accountProfile, updateProfile } from "@/lib/services/accounts";

export const GET = accountRoute(getAccountContract, ({ user }) => accountProfile(user.id));
export const PATCH = accountRoute(updateProfileContract, ({ user, body }) => updateProfile(user.id, body));
