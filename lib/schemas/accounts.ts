import { z } from "zod";
import { Role } from "@/lib/generated/prisma/enums";
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

const currentPassword = z.string().min(1).max(200);

/** Turning two-factor on: the first code from the app, and the password again (a session alone is not enough). */
export const enableTwoFactorInput = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, "must be the 6-digit code from your app"),
  password: currentPassword,
});

export const disableTwoFactorInput = z.object({ password: currentPassword });

// What the dashboard's account endpoints answer (lib/contracts/account.ts).

export const accountProfile = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  email_verified: z.boolean(),
  two_factor_enabled: z.boolean(),
  recovery_codes_remaining: z.number().int(),
});

/** A verified address or a reset password: which account it was. */
export const accountConfirmation = z.object({ success: z.boolean(), email: z.string() });

export const recoveryCodes = z.object({ success: z.boolean(), recovery_codes: z.array(z.string()) });

export const twoFactorSetup = z.object({ secret: z.string(), otpauth_url: z.string(), qr_svg: z.string() });

export const sessionOrganization = z.object({ id: z.string(), name: z.string(), role: z.enum(Role) });

export const sessionInfo = z.object({
  user: z.object({ id: z.string(), email: z.string(), name: z.string(), email_verified: z.boolean() }),
  organizations: z.array(sessionOrganization),
  current_organization_id: z.string().nullable(),
  role: z.enum(Role).nullable(),
});
