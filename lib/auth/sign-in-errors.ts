/** What a refused sign-in answers as next-auth's `error`, shared by the server and the form. */
export const SIGN_IN_ERRORS = {
  throttled: "TOO_MANY_ATTEMPTS",
  twoFactorRequired: "TWO_FACTOR_REQUIRED",
  invalidCode: "INVALID_TWO_FACTOR_CODE",
} as const;

/** The sentence the sign-in form shows for next-auth's `error` value. */
export function signInErrorMessage(error: string): string {
  if (error.startsWith(`${SIGN_IN_ERRORS.throttled}:`)) {
    const seconds = Number(error.split(":")[1]) || 60;
    const wait = seconds >= 90 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} second${seconds === 1 ? "" : "s"}`;
    return `Too many failed sign-ins. For your security, signing in to this account is paused: try again in ${wait}, or reset your password.`;
  }
  if (error === SIGN_IN_ERRORS.invalidCode) return "That code is not right. Enter the current 6-digit code from your app, or a recovery code.";
  if (error === "CredentialsSignin") return "The email or password is not right.";
  return "Could not sign in. Please try again.";
}
