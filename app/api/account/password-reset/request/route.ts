import { publicAccountRoute } from "@/lib/api/account-route";
import { rateLimits } from "@/lib/api/rate-limit";
import { passwordResetRequestInput } from "@/lib/schemas/accounts";
import { requestPasswordReset } from "@/lib/services/accounts";

// Throttled per client and per address, then answered at once: the link is made and mailed after
// the answer, so neither the answer nor its timing says whether the address has an account.
export const POST = publicAccountRoute({ body: passwordResetRequestInput }, async ({ body, ip }) => {
  await rateLimits.passwordResetRequest(body.email, ip);
  return requestPasswordReset(body.email);
});
