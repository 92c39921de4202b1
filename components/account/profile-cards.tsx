"use client";

import { useQueryClient } from "@tanstack/react-query";
import { signIn, signOut } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardFooter, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormError, FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toast";
import { apiFetch, apiCall } from "@/lib/client/api";
import { applyServerErrors, submitToApi } from "@/lib/client/form-errors";
import { formResolver } from "@/lib/client/form-resolver";
import { sessionQueryKey } from "@/lib/client/session";
import { changePasswordInput, updateProfileInput } from "@/lib/schemas/accounts";
import { accountKey, type AccountProfile } from "./account-screen";

export function ProfileCard({ account }: { account: AccountProfile }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const form = useForm<{ name: string }>({ resolver: formResolver(updateProfileInput), defaultValues: { name: account.name } });
  const { errors, isSubmitting, isDirty } = form.formState;
  const submit = submitToApi(form, ["name"], async (values) => {
    const saved = await apiCall("PATCH /api/account", { body: values });
    queryClient.setQueryData(accountKey, saved);
    form.reset({ name: saved.name });
    toast.success("Name saved");
    router.refresh();
    await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
  });
  return (
    <Card>
      <CardHeader title="Profile" description="Your name is shown to your team and in the invitations you send." />
      <form onSubmit={submit} noValidate>
        <CardBody className="flex flex-col gap-4">
          <FormError message={errors.root?.server?.message} />
          <FormField label="Full name" error={errors.name?.message} className="max-w-md">
            <Input autoComplete="name" {...form.register("name")} />
          </FormField>
          <div className="flex items-center gap-2 text-sm text-zinc-600">
            <span>{account.email}</span>
            <StatusBadge status={account.email_verified ? "verified" : "unverified"} />
          </div>
        </CardBody>
        <CardFooter>
          <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
            Save name
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}

type PasswordValues = { current_password: string; new_password: string };

/** A new password ends every session; this one signs in again with it at once. */
export function PasswordCard({ account }: { account: AccountProfile }) {
  const router = useRouter();
  const form = useForm<PasswordValues>({ resolver: formResolver(changePasswordInput), defaultValues: { current_password: "", new_password: "" } });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      await apiFetch("/api/account/password", { method: "POST", body: values });
    } catch (error) {
      applyServerErrors(error, form.setError, ["current_password", "new_password"]);
      return;
    }
    form.reset();
    const again = await signIn("credentials", { email: account.email, password: values.new_password, redirect: false });
    if (!again || again.error) {
      router.replace(`/sign-in?notice=password-reset&email=${encodeURIComponent(account.email)}`);
      return;
    }
    toast.success("Password changed", "Every other session was signed out.");
    router.refresh();
  });
  return (
    <Card>
      <CardHeader title="Password" description="Changing it signs you out everywhere else." />
      <form onSubmit={submit} noValidate>
        <CardBody className="flex flex-col gap-4">
          <FormError message={errors.root?.server?.message} />
          <FormField label="Current password" error={errors.current_password?.message} className="max-w-md">
            <Input type="password" autoComplete="current-password" {...form.register("current_password")} />
          </FormField>
          <FormField label="New password" error={errors.new_password?.message} hint="At least 8 characters." className="max-w-md">
            <Input type="password" autoComplete="new-password" {...form.register("new_password")} />
          </FormField>
        </CardBody>
        <CardFooter>
          <Button type="submit" loading={isSubmitting}>
            Change password
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}

export function SessionsCard() {
  const [asking, setAsking] = useState(false);
  const signOutEverywhere = async () => {
    try {
      await apiFetch("/api/account/sign-out-everywhere", { method: "POST" });
    } catch (error) {
      toast.error(error, "Could not sign out everywhere");
      throw error;
    }
    await signOut({ callbackUrl: "/sign-in?notice=signed-out-everywhere" });
  };
  return (
    <Card>
      <CardHeader
        title="Sessions"
        description="Lost a laptop, or signed in on a shared computer? End every session of your account, this one included."
        actions={
          <Button variant="secondary" onClick={() => setAsking(true)}>
            Sign out everywhere
          </Button>
        }
      />
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        onConfirm={signOutEverywhere}
        title="Sign out everywhere?"
        description="Every browser signed in to your account, this one included, is signed out at its next request. API keys keep working; revoke them under Settings."
        confirmLabel="Sign out everywhere"
      />
    </Card>
  );
}
