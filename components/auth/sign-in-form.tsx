"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { FormError, FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { formResolver } from "@/lib/client/form-resolver";
import { signInInput } from "@/lib/schemas/accounts";

type Values = { email: string; password: string };

export function SignInForm({ email, callbackUrl }: { email?: string; callbackUrl: string }) {
  const router = useRouter();
  const form = useForm<Values>({ resolver: formResolver(signInInput), defaultValues: { email: email ?? "", password: "" } });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    const result = await signIn("credentials", { email: values.email, password: values.password, redirect: false, callbackUrl });
    if (!result || result.error) {
      const message = result?.error === "CredentialsSignin" || !result ? "The email or password is not right." : "Could not sign in. Please try again.";
      form.setError("root.server", { type: "server", message });
      form.setFocus("password");
      return;
    }
    router.replace(callbackUrl);
    router.refresh();
  });

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <FormError message={errors.root?.server?.message} />
      <FormField label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" autoFocus={!email} placeholder="you@company.com" {...form.register("email")} />
      </FormField>
      <FormField label="Password" error={errors.password?.message}>
        <Input type="password" autoComplete="current-password" autoFocus={Boolean(email)} {...form.register("password")} />
      </FormField>
      <Button type="submit" size="lg" className="mt-2 w-full" loading={isSubmitting}>
        Sign in
      </Button>
    </form>
  );
}
