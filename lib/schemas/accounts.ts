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

export const signInInput = z.object({
  email: emailAddress,
  password: z.string().min(1).max(200),
  /** The second step, for users with two-factor sign-in: a TOTP or a recovery code. */
  code: z.string().trim().max(40).optional(),
});

export const createOrganizationInput = z.object({ name: requiredText(limits.name) });

const linkToken = z.string().min(32).max(200);

export const verifyEmailInput = z.object({ token: linkToken });

export const passwordResetRequestInput = z.object({ email: emailAddress });

export const passwordResetInput = z.object({ token: linkToken, password });

export const changePasswordInput = z.object({ current_password: z.string().min(1).max(200), new_password: password });

export const updateProfileInput = z.object({ name: requiredText(limits.name) });

export const twoFactorCodeInput = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, "must be the 6-digit code from your app"),
});

export const disableTwoFactorInput = z.object({ password: z.string().min(1).max(200) });
