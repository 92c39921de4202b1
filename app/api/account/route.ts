import { accountRoute } from "@/lib/api/account-route";
import { updateProfileInput } from "@/lib/schemas/accounts";
import { accountProfile, updateProfile } from "@/lib/services/accounts";

export const GET = accountRoute({}, ({ user }) => accountProfile(user.id));
export const PATCH = accountRoute({ body: updateProfileInput }, ({ user, body }) => updateProfile(user.id, body));
