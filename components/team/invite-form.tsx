"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Send } from "lucide-react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { FormError, FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/select";
import { toast } from "@/components/ui/toast";
import { apiCall } from "@/lib/client/api";
import { submitToApi } from "@/lib/client/form-errors";
import { formResolver } from "@/lib/client/form-resolver";
import { createInvitationInput, type CreateInvitationInput } from "@/lib/schemas/invitations";
import { invitationsKey, roleOptions } from "./types";

export function InviteForm({ organizationName }: { organizationName: string }) {
  const queryClient = useQueryClient();
  const form = useForm<CreateInvitationInput>({ resolver: formResolver(createInvitationInput), defaultValues: { email: "", role: "member" } });
  const { errors, isSubmitting } = form.formState;

  const submit = submitToApi(form, ["email", "role"], async (values) => {
    await apiCall("POST /v1/invitations", { body: values });
    toast.success(`Invitation sent to ${values.email}`, "The link in the email works for 7 days.");
    form.reset({ email: "", role: values.role });
    await queryClient.invalidateQueries({ queryKey: invitationsKey });
  });

  return (
    <Card>
      <CardHeader title="Invite a teammate" description={`They get an email with a link to join ${organizationName}.`} />
      <CardBody>
        <form onSubmit={submit} noValidate className="flex flex-col gap-3">
          <FormError message={errors.root?.server?.message} />
          <div className="grid gap-3 md:grid-cols-[1fr_180px_auto] md:items-start">
            <FormField label="Email address" error={errors.email?.message}>
              <Input type="email" placeholder="colleague@company.com" autoComplete="off" {...form.register("email")} />
            </FormField>
            <FormField label="Role" error={errors.role?.message}>
              <NativeSelect options={roleOptions.filter((o) => o.value !== "owner")} {...form.register("role")} />
            </FormField>
            <Button type="submit" loading={isSubmitting} className="md:mt-[26px]">
              {!isSubmitting && <Send aria-hidden />}
              Send invitation
            </Button>
          </div>
          <p className="text-[13px] text-zinc-500">Admins can invite people and manage the team; members can do everything else.</p>
        </form>
      </CardBody>
    </Card>
  );
}
