import { defineContract } from "@/lib/contracts/contract";
import {
  accountConfirmation,
  accountProfile,
  createOrganizationInput,
  enableTwoFactorInput,
  passwordResetInput,
  recoveryCodes,
  sessionInfo,
  sessionOrganization,
  twoFactorSetup,
  updateProfileInput,
  verifyEmailInput,
} from "@/lib/schemas/accounts";

// The dashboard's own endpoints (not /v1, so not in the OpenAPI document): the routes validate
// with these bodies and answer these responses, and the dashboard calls them by contract.
const tag = "Account";

export const getAccountContract = defineContract({
  method: "GET",
  path: "/api/account",
  tag,
  summary: "The signed-in user's profile",
  auth: "user",
  response: accountProfile,
});

export const updateProfileContract = defineContract({
  method: "PATCH",
  path: "/api/account",
  tag,
  summary: "Change the signed-in user's name",
  auth: "user",
  body: updateProfileInput,
  response: accountProfile,
});

export const verifyEmailContract = defineContract({
  method: "POST",
  path: "/api/account/verify-email",
  tag,
  summary: "Verify an address with the link's token",
  auth: "user",
  body: verifyEmailInput,
  response: accountConfirmation,
});

export const resetPasswordContract = defineContract({
  method: "POST",
  path: "/api/account/password-reset",
  tag,
  summary: "Set a new password with the link's token",
  auth: "user",
  body: passwordResetInput,
  response: accountConfirmation,
});

export const twoFactorSetupContract = defineContract({
  method: "POST",
  path: "/api/account/two-factor/setup",
  tag,
  summary: "Start two-factor set-up: a new secret and its QR code",
  auth: "user",
  response: twoFactorSetup,
});

export const enableTwoFactorContract = defineContract({
  method: "POST",
  path: "/api/account/two-factor/enable",
  tag,
  summary: "Confirm two-factor set-up with a first code and the password",
  auth: "user",
  body: enableTwoFactorInput,
  response: recoveryCodes,
});

export const sessionContract = defineContract({
  method: "GET",
  path: "/api/session",
  tag,
  summary: "The signed-in user, their organizations and the one in use",
  auth: "user",
  response: sessionInfo,
});

export const createOrganizationContract = defineContract({
  method: "POST",
  path: "/api/session/organizations",
  tag,
  summary: "Create an organization and switch to it",
  auth: "user",
  body: createOrganizationInput,
  status: 201,
  response: sessionOrganization,
});
