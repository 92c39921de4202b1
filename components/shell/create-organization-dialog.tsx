"use client";

import { useForm } from "react-hook-form";
import { FormDialog } from "@/components/ui/form-dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toast";
import { apiCall } from "@/lib/client/api";
import { submitToApi } from "@/lib/client/form-errors";
import { formResolver } from "@/lib/client/form-resolver";
import { createOrganizationInput } from "@/lib/schemas/accounts";

type Values = { name: string };

/** Names a new organization; the user becomes its owner and the dashboard switches to it. */
export function CreateOrganizationDialog({
  open,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: () => Promise<void> | void;
}) {
  const form = useForm<Values>({ resolver: formResolver(createOrganizationInput), defaultValues: { name: "" } });
  const submit = submitToApi(form, ["name"], async (values) => {
    const organization = await apiCall("POST /api/session/organizations", { body: values });
    toast.success(`Created ${organization.name}`, "You are its owner. Invite your team from the Team page.");
    onOpenChange(false);
    form.reset();
    await onCreated();
  });
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Create organization"
      description="An organization has its own contacts, broadcasts, domains and team."
      form={form}
      formId="create-organization"
      onSubmit={submit}
      submitLabel="Create organization"
    >
      <FormField label="Organization name" error={form.formState.errors.name?.message} required>
        <Input autoFocus placeholder="Acme Inc." autoComplete="organization" {...form.register("name")} />
      </FormField>
    </FormDialog>
  );
}
