import { z } from "zod";
import { emailAddress, limits, requiredText } from "./common";

export const password = z.string().min(8, "must be at least 8 characters").max(200);

export const signUpInput = z.object({
  name: requiredText(limits.name),
  email: emailAddress,
  password,
  organization_name: requiredText(limits.name).optional(),
  /** Set when the visitor came from an invitation link: no organization of their own is made. */
  invitation_token: z.string().min(32).max(200).optional(),
});
export type SignUpInput = z.infer<typeof signUpInput>;

export const signInInput = z.object({ email: emailAddress, password: z.string().min(1).max(200) });

export const createOrganizationInput = z.object({ name: requiredText(limits.name) });
