"use client";

import { MailCheck } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { FormError, FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { apiFetch, apiCall } from "@/lib/client/api";
import { submitToApi } from "@/lib/client/form-errors";
import { formResolver } from "@/lib/client/form-resolver";
import { passwordResetInput, passwordResetRequestInput } from "@/lib/schemas/accounts";

export function ForgotPasswordForm({ email }: { email?: string }) {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm<{ email: string }>({ resolver: formResolver(passwordResetRequestInput), defaultValues: { email: email ?? "" } });
  const { errors, isSubmitting } = form.formState;
  const submit = submitToApi(form, ["email"], async (values) => {
    await apiFetch("/api/account/password-reset/request", { method: "POST", body: values });
    setSentTo(values.email);
  });
  if (sentTo) {
    return (
      <div role="status" className="flex flex-col items-center gap-3 text-center text-sm text-zinc-600">
        <MailCheck className="size-8 text-brand-600" aria-hidden />
        <p className="text-base font-medium text-zinc-900">Check your email</p>
        <p>
          If <span className="font-medium text-zinc-800">{sentTo}</span> has an account, a link to reset its password is on its way. It works once, for 1 hour.
        </p>
      </div>
    );
  }
  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <FormError message={errors.root?.server?.message} />
      <FormField label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" autoFocus placeholder="you@company.com" {...form.register("email")} />
      </FormField>
      <Button type="submit" size="lg" className="mt-2 w-full" loading={isSubmitting}>
        Send reset link
      </Button>
    </form>
  );
}

export function ResetPasswordForm({ token }: { token: string }) {
  const router = useRouter();
  const form = useForm<{ token: string; password: string }>({ resolver: formResolver(passwordResetInput), defaultValues: { token, password: "" } });
  const { errors, isSubmitting } = form.formState;
  const submit = submitToApi(form, ["password"], async (values) => {
    const result = await apiCall("POST /api/account/password-reset", { body: values });
    router.replace(`/sign-in?notice=password-reset&email=${encodeURIComponent(result.email)}`);
  });
  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <FormError message={errors.root?.server?.message} />
      <FormField label="New password" error={errors.password?.message} hint="At least 8 characters.">
        <Input type="password" autoComplete="new-password" autoFocus {...form.register("password")} />
      </FormField>
      <Button type="submit" size="lg" className="mt-2 w-full" loading={isSubmitting}>
        Save new password
      </Button>
    </form>
  );
}
