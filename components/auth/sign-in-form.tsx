"use client";

import { signIn } from "next-auth/react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { FormError, FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { SIGN_IN_ERRORS, signInErrorMessage } from "@/lib/auth/sign-in-errors";
import { safeCallbackUrl } from "@/lib/client/callback-url";
import { formResolver } from "@/lib/client/form-resolver";
import { signInInput } from "@/lib/schemas/accounts";

type Values = { email: string; password: string; code?: string };

/**
 * Email and password, then, for users who turned it on, a second step asking for the code from
 * their authenticator app (or a recovery code). The password is sent again with the code: the
 * server keeps no half-signed-in state.
 */
export function SignInForm({ email, callbackUrl, notice }: { email?: string; callbackUrl: string; notice?: string }) {
  const router = useRouter();
  const [needsCode, setNeedsCode] = useState(false);
  const form = useForm<Values>({ resolver: formResolver(signInInput), defaultValues: { email: email ?? "", password: "", code: "" } });
  const { errors, isSubmitting } = form.formState;
  const typedEmail = useWatch({ control: form.control, name: "email" });

  const submit = form.handleSubmit(async (values) => {
    const target = safeCallbackUrl(callbackUrl);
    const result = await signIn("credentials", {
      email: values.email,
      password: values.password,
      code: values.code ?? "",
      redirect: false,
      callbackUrl: target,
    });
    if (!result || result.error) {
      if (result?.error === SIGN_IN_ERRORS.twoFactorRequired) {
        setNeedsCode(true);
        form.clearErrors("root.server");
        setTimeout(() => form.setFocus("code"), 0);
        return;
      }
      form.setError("root.server", { type: "server", message: signInErrorMessage(result?.error ?? "CredentialsSignin") });
      form.setFocus(needsCode ? "code" : "password");
      return;
    }
    router.replace(target);
    router.refresh();
  });

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      {notice && !errors.root?.server && (
        <p role="status" className="rounded-lg border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          {notice}
        </p>
      )}
      <FormError message={errors.root?.server?.message} />
      <div className={needsCode ? "hidden" : "flex flex-col gap-4"}>
        <FormField label="Email" error={errors.email?.message}>
          <Input type="email" autoComplete="email" autoFocus={!email} placeholder="you@company.com" {...form.register("email")} />
        </FormField>
        <FormField
          label="Password"
          error={errors.password?.message}
          aside={
            <Link
              href={`/forgot-password${typedEmail ? `?email=${encodeURIComponent(typedEmail)}` : ""}`}
              className="text-xs font-medium text-brand-600 hover:underline"
            >
              Forgot password?
            </Link>
          }
        >
          <Input type="password" autoComplete="current-password" autoFocus={Boolean(email)} {...form.register("password")} />
        </FormField>
      </div>
      {needsCode && (
        <FormField label="Authentication code" hint="The 6-digit code from your authenticator app, or one of your recovery codes.">
          <Input autoComplete="one-time-code" inputMode="text" placeholder="123456" {...form.register("code")} />
        </FormField>
      )}
      <Button type="submit" size="lg" className="mt-2 w-full" loading={isSubmitting}>
        {needsCode ? "Verify and sign in" : "Sign in"}
      </Button>
    </form>
  );
}
