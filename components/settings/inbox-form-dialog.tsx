"use client";

import { useEffect } from "react";
import type { z } from "zod";
import { Controller, useForm, useWatch, type Resolver } from "react-hook-form";
import { FormDialog } from "@/components/ui/form-dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Switch } from "@/components/ui/switch";
import { toast } from "@/components/ui/toast";
import { apiCall } from "@/lib/client/api";
import { submitToApi } from "@/lib/client/form-errors";
import { formResolver } from "@/lib/client/form-resolver";
import { createInboxInput, updateInboxInput } from "@/lib/schemas/inboxes";
import type { Inbox } from "@/lib/client/resources/inboxes";

type Connection = { host: string; port: number; secure: boolean; username: string | null | undefined; password: string | null | undefined };

type Values = {
  name: string;
  from_email: string;
  from_name: string | null;
  reply_to: string | null;
  daily_limit: number;
  smtp: Connection;
  imap: Connection | null;
};

const fields = ["name", "from_email", "from_name", "reply_to", "daily_limit", "smtp", "imap"];

const orNull = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value : null);
// Editing: an empty password keeps the stored one, so it is left out of the request.
const orUndefined = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

function defaults(inbox: Inbox | null): Values {
  if (!inbox) {
    return {
      name: "",
      from_email: "",
      from_name: null,
      reply_to: null,
      daily_limit: 50,
      smtp: { host: "", port: 587, secure: false, username: null, password: null },
      imap: null,
    };
  }
  return {
    name: inbox.name,
    from_email: inbox.from_email,
    from_name: inbox.from_name,
    reply_to: inbox.reply_to,
    daily_limit: inbox.daily_limit,
    smtp: { host: inbox.smtp.host, port: inbox.smtp.port, secure: inbox.smtp.secure, username: inbox.smtp.username, password: undefined },
    imap: inbox.imap ? { host: inbox.imap.host, port: inbox.imap.port, secure: inbox.imap.secure, username: inbox.imap.username, password: undefined } : null,
  };
}

const newImap: Connection = { host: "", port: 993, secure: true, username: "", password: "" };

function Section({ title, description, children, aside }: { title: string; description?: string; children: React.ReactNode; aside?: React.ReactNode }) {
  return (
    <fieldset className="flex flex-col gap-4 border-t border-zinc-100 pt-5 first:border-t-0 first:pt-0">
      <div className="flex items-start justify-between gap-4">
        <div>
          <legend className="text-sm font-semibold text-zinc-900">{title}</legend>
          {description && <p className="mt-0.5 text-[13px] text-zinc-500">{description}</p>}
        </div>
        {aside}
      </div>
      {children}
    </fieldset>
  );
}

/** Connects a sender inbox (SMTP, optional IMAP for replies) or edits one. */
export function InboxFormDialog({
  open,
  inbox,
  onOpenChange,
  onSaved,
}: {
  open: boolean;
  inbox: Inbox | null;
  onOpenChange: (open: boolean) => void;
  onSaved: () => void;
}) {
  const editing = inbox !== null;
  const form = useForm<Values>({
    resolver: (editing ? formResolver(updateInboxInput) : formResolver(createInboxInput)) as unknown as Resolver<Values>,
    defaultValues: defaults(inbox),
  });
  const { errors } = form.formState;
  const imap = useWatch({ control: form.control, name: "imap" });
  const passwordAs = editing ? orUndefined : orNull;

  useEffect(() => {
    if (open) form.reset(defaults(inbox));
  }, [open, inbox, form]);

  // The resolver hands over what the contract's own body schema parsed (the form's Values are looser).
  const submit = submitToApi(form, fields, async (values) => {
    const saved = editing
      ? await apiCall("PUT /v1/inboxes/{id}", { params: { id: inbox.id }, body: values as z.output<typeof updateInboxInput> })
      : await apiCall("POST /v1/inboxes", { body: values as z.output<typeof createInboxInput> });
    toast.success(editing ? `Saved ${saved.name}` : `Connected ${saved.name}`, editing ? undefined : `It can send up to ${saved.daily_limit} emails a day.`);
    onSaved();
  });

  const passwordHint = (stored: boolean | undefined) => (editing && stored ? "Leave empty to keep the saved password." : undefined);

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      size="lg"
      title={editing ? `Edit ${inbox.name}` : "Connect an inbox"}
      description="A mailbox that sends your sequences and broadcasts. Passwords are stored encrypted and never shown again."
      form={form}
      formId="inbox-form"
      onSubmit={submit}
      submitLabel={editing ? "Save changes" : "Connect inbox"}
      className="gap-5"
    >
      <Section title="Sender">
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="Inbox name" error={errors.name?.message} required>
            <Input placeholder="Sales – Ada" {...form.register("name")} />
          </FormField>
          <FormField label="Daily limit" error={errors.daily_limit?.message} hint="Emails per day, 1 to 10,000.">
            <Input type="number" min={1} max={10000} {...form.register("daily_limit", { valueAsNumber: true })} />
          </FormField>
          <FormField
            label="From address"
            error={errors.from_email?.message}
            hint="The inbox sends once this address is confirmed by a link mailed to it, unless it is at a verified domain. A new address or SMTP server asks for a new confirmation."
            required
          >
            <Input type="email" placeholder="ada@example.com" {...form.register("from_email")} />
          </FormField>
          <FormField label="From name" error={errors.from_name?.message}>
            <Input placeholder="Ada Lovelace" {...form.register("from_name", { setValueAs: orNull })} />
          </FormField>
          <FormField
            label="Reply-to address"
            error={errors.reply_to?.message}
            hint="Optional. Replies go to the from address otherwise."
            className="sm:col-span-2"
          >
            <Input type="email" placeholder="replies@example.com" {...form.register("reply_to", { setValueAs: orNull })} />
          </FormField>
        </div>
      </Section>
      <Section title="Outgoing mail (SMTP)" description="From your mail provider's settings page.">
        <div className="grid gap-4 sm:grid-cols-[1fr_120px]">
          <FormField label="SMTP host" error={errors.smtp?.host?.message} required>
            <Input placeholder="smtp.example.com" autoCapitalize="none" spellCheck={false} {...form.register("smtp.host")} />
          </FormField>
          <FormField label="SMTP port" error={errors.smtp?.port?.message} required>
            <Input type="number" min={1} max={65535} {...form.register("smtp.port", { valueAsNumber: true })} />
          </FormField>
          <FormField label="SMTP username" error={errors.smtp?.username?.message}>
            <Input autoComplete="off" autoCapitalize="none" {...form.register("smtp.username", { setValueAs: orNull })} />
          </FormField>
          <div className="hidden sm:block" />
          <FormField label="SMTP password" error={errors.smtp?.password?.message} hint={passwordHint(inbox?.smtp.has_password)}>
            <Input type="password" autoComplete="new-password" {...form.register("smtp.password", { setValueAs: passwordAs })} />
          </FormField>
        </div>
        <Controller
          control={form.control}
          name="smtp.secure"
          render={({ field }) => (
            <label className="flex items-center gap-3 text-sm text-zinc-700">
              <Switch checked={field.value} onCheckedChange={field.onChange} aria-label="SMTP uses TLS from the start" />
              <span>
                TLS from the start <span className="text-zinc-500">(usually port 465; otherwise STARTTLS is used when offered)</span>
              </span>
            </label>
          )}
        />
      </Section>
      <Section
        title="Replies (IMAP)"
        description="Optional. With IMAP, replies are detected and stop the sequence for that contact."
        aside={
          <Switch
            checked={imap !== null}
            onCheckedChange={(on) => form.setValue("imap", on ? (inbox?.imap ? defaults(inbox).imap : newImap) : null, { shouldDirty: true })}
            aria-label="Read replies over IMAP"
          />
        }
      >
        {imap !== null && (
          <>
            <div className="grid gap-4 sm:grid-cols-[1fr_120px]">
              <FormField label="IMAP host" error={errors.imap?.host?.message} required>
                <Input placeholder="imap.example.com" autoCapitalize="none" spellCheck={false} {...form.register("imap.host")} />
              </FormField>
              <FormField label="IMAP port" error={errors.imap?.port?.message} required>
                <Input type="number" min={1} max={65535} {...form.register("imap.port", { valueAsNumber: true })} />
              </FormField>
              <FormField label="IMAP username" error={errors.imap?.username?.message} required>
                <Input autoComplete="off" autoCapitalize="none" {...form.register("imap.username")} />
              </FormField>
              <div className="hidden sm:block" />
              <FormField
                label="IMAP password"
                error={errors.imap?.password?.message}
                required={!inbox?.imap?.has_password}
                hint={passwordHint(inbox?.imap?.has_password)}
              >
                <Input
                  type="password"
                  autoComplete="new-password"
                  {...form.register("imap.password", { setValueAs: editing ? orUndefined : (v: unknown) => (typeof v === "string" ? v : "") })}
                />
              </FormField>
            </div>
            <Controller
              control={form.control}
              name="imap.secure"
              render={({ field }) => (
                <label className="flex items-center gap-3 text-sm text-zinc-700">
                  <Switch checked={Boolean(field.value)} onCheckedChange={field.onChange} aria-label="IMAP uses TLS" />
                  <span>
                    TLS <span className="text-zinc-500">(port 993)</span>
                  </span>
                </label>
              )}
            />
          </>
        )}
      </Section>
    </FormDialog>
  );
}
