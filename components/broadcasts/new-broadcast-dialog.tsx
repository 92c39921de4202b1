"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { bodyResolver } from "@/components/ui/body-resolver";
import { FormDialog } from "@/components/ui/form-dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toast";
import { apiCall } from "@/lib/client/api";
import { submitToApi } from "@/lib/client/form-errors";
import { useSessionInfo } from "@/lib/client/session";
import { createBroadcastInput } from "@/lib/schemas/broadcasts";
import { queryKeys } from "@/lib/client/query-keys";

type Values = { name: string; subject: string; from_email: string };

const fields = ["name", "subject", "from_email"] as const;

const resolver = bodyResolver<Values, typeof createBroadcastInput>(createBroadcastInput, (values) => values);

/** The three things a draft needs; everything else is set in the editor it opens. */
export function NewBroadcastDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const session = useSessionInfo();
  const form = useForm<Values>({
    resolver,
    values: { name: "", subject: "", from_email: session.data?.user.email ?? "" },
    resetOptions: { keepDirtyValues: true },
  });
  const { errors } = form.formState;

  const submit = submitToApi(form, fields, async (values) => {
    const created = await apiCall("POST /v1/broadcasts", { body: values });
    queryClient.setQueryData(queryKeys.broadcasts.detail(created.id), created);
    await queryClient.invalidateQueries({ queryKey: queryKeys.broadcasts.all(), exact: false, refetchType: "none" });
    toast.success("Draft created", "Finish the details, then send or schedule it.");
    router.push(`/broadcasts/${created.id}`);
  });

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="New broadcast"
      description="Start a draft. You can change all of this, pick the audience and add follow-ups in the editor."
      form={form}
      formId="new-broadcast"
      onSubmit={submit}
      submitLabel="Create draft"
    >
      <FormField label="Name" error={errors.name?.message} hint="Only your team sees this." required>
        <Input autoFocus placeholder="November product update" {...form.register("name")} />
      </FormField>
      <FormField label="Subject" error={errors.subject?.message} required>
        <Input placeholder="What's new in November" {...form.register("subject")} />
      </FormField>
      <FormField label="From address" error={errors.from_email?.message} hint="Use an address at a verified domain, or pick an inbox in the editor." required>
        <Input type="email" autoComplete="email" placeholder="news@yourcompany.com" {...form.register("from_email")} />
      </FormField>
    </FormDialog>
  );
}
