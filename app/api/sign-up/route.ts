import { publicAccountRoute } from "@/lib/api/account-route";
import { signUpInput } from "@/lib/schemas/accounts";
import { signUp } from "@/lib/services/accounts";

// Not under /v1: it creates the credential that /v1 then accepts. The answer is the same whether
// or not the address already has an account; the mail to it says which.
export const POST = publicAccountRoute({ body: signUpInput, status: 202 }, async ({ body, ip }) => {
  await signUp(body, { ip });
  return { success: true, message: "Check your email: we sent a link to verify your address." };
});
