"use client";

import { MailCheck } from "lucide-react";
import { signIn } from "next-auth/react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { FormError, FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { apiFetch } from "@/lib/client/api";
import { safeCallbackUrl } from "@/lib/client/callback-url";
import { applyServerErrors } from "@/lib/client/form-errors";
import { formResolver } from "@/lib/client/form-resolver";
import { signUpInput, type SignUpInput } from "@/lib/schemas/accounts";

const fields = ["name", "email", "password", "organization_name"] as const;

const emptyToUndefined = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value : undefined);

type Props = {
  email?: string;
  /** The invitation the visitor came from: no organization of their own, email fixed to the invited one. */
  invitation?: { token: string; email: string };
  callbackUrl: string;
};

/**
 * Creates the account and signs in. The server answers the same whether or not the address was
 * free (the mail to it tells its owner which), so when signing in does not work the form says to
 * check the inbox rather than "already registered".
 */
export function SignUpForm({ email, invitation, callbackUrl }: Props) {
  const router = useRouter();
  const [checkInbox, setCheckInbox] = useState<string | null>(null);
  const form = useForm<SignUpInput>({
    resolver: formResolver(signUpInput),
    defaultValues: { name: "", email: invitation?.email ?? email ?? "", password: "", invitation_token: invitation?.token },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    try {
      await apiFetch("/api/sign-up", { method: "POST", body: values });
    } catch (error) {
      applyServerErrors(error, form.setError, fields);
      return;
    }
    const target = safeCallbackUrl(callbackUrl);
    const result = await signIn("credentials", { email: values.email, password: values.password, redirect: false, callbackUrl: target });
    if (!result || result.error) {
      setCheckInbox(values.email);
      return;
    }
    router.replace(target);
    router.refresh();
  });

  if (checkInbox) {
    return (
      <div role="status" className="flex flex-col items-center gap-3 text-center text-sm text-zinc-600">
        <MailCheck className="size-8 text-brand-600" aria-hidden />
        <p className="text-base font-medium text-zinc-900">Check your email</p>
        <p>
          We sent a message to <span className="font-medium text-zinc-800">{checkInbox}</span> with what to do next. If you already have an account, sign in or
          reset your password.
        </p>
        <Link href={`/sign-in?email=${encodeURIComponent(checkInbox)}`} className="font-medium text-brand-600 hover:underline">
          Go to sign in
        </Link>
      </div>
    );
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <FormError message={errors.root?.server?.message} />
      <FormField label="Full name" error={errors.name?.message}>
        <Input autoComplete="name" autoFocus placeholder="Ada Lovelace" {...form.register("name")} />
      </FormField>
      <FormField
        label="Work email"
        error={errors.email?.message}
        hint={invitation ? "The invitation was sent to this address, so your account uses it." : "We send a link to verify it."}
      >
        <Input
          type="email"
          autoComplete="email"
          placeholder="you@company.com"
          readOnly={Boolean(invitation)}
          className={invitation ? "bg-zinc-50 text-zinc-600" : undefined}
          {...form.register("email")}
        />
      </FormField>
      <FormField label="Password" error={errors.password?.message} hint="At least 8 characters.">
        <Input type="password" autoComplete="new-password" {...form.register("password")} />
      </FormField>
      {!invitation && (
        <FormField label="Organization name" error={errors.organization_name?.message} hint="Optional. You can rename it or create more later.">
          <Input autoComplete="organization" placeholder="Acme Inc." {...form.register("organization_name", { setValueAs: emptyToUndefined })} />
        </FormField>
      )}
      <Button type="submit" size="lg" className="mt-2 w-full" loading={isSubmitting}>
        Create account
      </Button>
    </form>
  );
}
