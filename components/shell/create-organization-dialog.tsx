"use client";

import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormError, FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toast";
import { apiFetch } from "@/lib/client/api";
import { applyServerErrors } from "@/lib/client/form-errors";
import { formResolver } from "@/lib/client/form-resolver";
import { createOrganizationInput } from "@/lib/schemas/accounts";
import type { SessionOrganization } from "@/lib/client/session";

type Values = { name: string };

/** Names a new organization; the user becomes its owner and the dashboard switches to it. */
export function CreateOrganizationDialog({ open, onOpenChange, onCreated }: { open: boolean; onOpenChange: (open: boolean) => void; onCreated: () => Promise<void> | void }) {
  const form = useForm<Values>({ resolver: formResolver(createOrganizationInput), defaultValues: { name: "" } });
  const submit = form.handleSubmit(async (values) => {
    try {
      const organization = await apiFetch<SessionOrganization>("/api/session/organizations", { method: "POST", body: values });
      toast.success(`Created ${organization.name}`, "You are its owner. Invite your team from the Team page.");
      onOpenChange(false);
      form.reset();
      await onCreated();
    } catch (error) {
      applyServerErrors(error, form.setError, ["name"]);
    }
  });
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) form.reset();
        onOpenChange(next);
      }}
      title="Create organization"
      description="An organization has its own contacts, broadcasts, domains and team."
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" form="create-organization" loading={form.formState.isSubmitting}>
            Create organization
          </Button>
        </>
      }
    >
      <form id="create-organization" onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <FormError message={form.formState.errors.root?.server?.message} />
        <FormField label="Organization name" error={form.formState.errors.name?.message} required>
          <Input autoFocus placeholder="Acme Inc." autoComplete="organization" {...form.register("name")} />
        </FormField>
      </form>
    </Dialog>
  );
}
