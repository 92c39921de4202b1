"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Plus, X } from "lucide-react";
import { useEffect, useMemo } from "react";
import { Controller, useFieldArray, useForm, useWatch, type Resolver } from "react-hook-form";
import { firstError } from "@/components/broadcasts/first-error";
import { bodyResolver } from "@/components/ui/body-resolver";
import { Controlled } from "@/components/ui/controlled";
import { Button } from "@/components/ui/button";
import { FormDialog } from "@/components/ui/form-dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/select";
import { Switch } from "@/components/ui/switch";
import { TagInput } from "@/components/ui/tag-input";
import { TimeZoneSelect } from "@/components/ui/time-zone-select";
import { toast } from "@/components/ui/toast";
import { ApiError, apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import { useContactProperties } from "@/lib/client/resources/contact-properties";
import { applyServerErrors } from "@/lib/client/form-errors";
import { limits } from "@/lib/schemas/common";
import { createContactInput, type ContactRecord } from "@/lib/schemas/contacts";
import { SuppressionCallout } from "./suppression";
import { contactFieldFor, contactFields, emptyContact, toContactBody, toContactValues, type ContactValues } from "./contact-values";
import { contactsKey } from "./use-contacts";

const schemaResolver = bodyResolver<ContactValues, typeof createContactInput>(createContactInput, toContactBody, contactFieldFor);

// Two rows with one key would silently keep only the last; say so instead.
const resolver: Resolver<ContactValues> = async (values, context, options) => {
  const result = await schemaResolver(values, context, options);
  const seen = new Set<string>();
  const duplicates = values.meta_rows.map((row) => {
    const key = row.key.trim();
    const repeated = key !== "" && seen.has(key);
    seen.add(key);
    return repeated;
  });
  if (!duplicates.some(Boolean)) return result;
  const errors = { ...result.errors } as Record<string, unknown>;
  errors.meta_rows = values.meta_rows.map((_row, index) => (duplicates[index] ? { key: { type: "duplicate", message: "Used twice" } } : undefined));
  return { values: {}, errors: errors as typeof result.errors };
};

type ContactDialogProps = { open: boolean; onOpenChange: (open: boolean) => void; contact?: ContactRecord };

/** Adds one contact or edits one: identity, subscription, tags and custom properties. */
export function ContactDialog({ open, onOpenChange, contact }: ContactDialogProps) {
  const queryClient = useQueryClient();
  const form = useForm<ContactValues>({ resolver, defaultValues: emptyContact });
  const rows = useFieldArray({ control: form.control, name: "meta_rows" });
  const metaRows = useWatch({ control: form.control, name: "meta_rows" });
  const properties = useContactProperties();
  const types = useMemo(() => new Map((properties.data ?? []).map((p) => [p.key, p.type])), [properties.data]);
  const { errors } = form.formState;
  const timezone = useWatch({ control: form.control, name: "timezone" });

  useEffect(() => {
    if (open) form.reset(contact ? toContactValues(contact) : emptyContact);
  }, [open, contact, form]);

  const submit = form.handleSubmit(async (values) => {
    try {
      const saved = contact
        ? await apiCall("PUT /v1/contacts/{id}", { params: { id: contact.id }, body: toContactBody(values, types) })
        : await apiCall("POST /v1/contacts", { body: toContactBody(values, types) });
      // A change of a contact's data can move it into or out of dynamic segments: their counts are read again.
      await Promise.all([queryClient.invalidateQueries({ queryKey: contactsKey }), queryClient.invalidateQueries({ queryKey: queryKeys.segments.all() })]);
      toast.success(contact ? "Contact saved" : `Added ${saved.email}`);
      onOpenChange(false);
    } catch (error) {
      const mapped =
        error instanceof ApiError
          ? new ApiError(
              error.status,
              error.code,
              error.message,
              error.details.map((d) => ({ ...d, path: contactFieldFor(d.path, values) ?? d.path })),
            )
          : error;
      applyServerErrors(mapped, form.setError, contactFields);
    }
  });

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      size="lg"
      title={contact ? "Edit contact" : "Add contact"}
      description={contact ? contact.email : "Contacts are matched by email, so each address appears once."}
      form={form}
      formId="contact-form"
      onSubmit={submit}
      submitLabel={contact ? "Save contact" : "Add contact"}
    >
      <SuppressionCallout suppression={contact?.suppression} />
      <FormField label="Email" error={errors.email?.message} required>
        <Input type="email" autoFocus autoComplete="off" placeholder="ada@example.com" {...form.register("email")} />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="First name" error={errors.first_name?.message}>
          <Input autoComplete="off" {...form.register("first_name")} />
        </FormField>
        <FormField label="Last name" error={errors.last_name?.message}>
          <Input autoComplete="off" {...form.register("last_name")} />
        </FormField>
      </div>
      <Controller
        control={form.control}
        name="subscribed"
        render={({ field }) => (
          <div className="flex items-start justify-between gap-4 rounded-lg border border-zinc-200 px-3 py-2.5">
            <div>
              <Label htmlFor="contact-subscribed">Subscribed</Label>
              <p className="text-[13px] text-zinc-500">{field.value ? "Receives broadcasts and sequences." : "Receives nothing until subscribed again."}</p>
            </div>
            <Switch id="contact-subscribed" checked={field.value} onCheckedChange={field.onChange} />
          </div>
        )}
      />
      <FormField label="Time zone" error={errors.timezone?.message} hint="Sending windows in the contact's time zone and business-day follow-ups use it.">
        <TimeZoneSelect current={timezone} leading={[{ value: "", label: "The organization's (Settings → Organization)" }]} {...form.register("timezone")} />
      </FormField>
      <FormField label="Tags" error={firstError(errors.tags)} hint="Lowercase; press Enter or comma to add.">
        <Controlled
          control={form.control}
          name="tags"
          render={({ field, aria }) => (
            <TagInput
              {...aria}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              max={limits.tags}
              maxLength={limits.tag}
              placeholder="customer, vip"
            />
          )}
        />
      </FormField>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1.5 text-sm font-medium text-zinc-800">Custom properties</legend>
        {rows.fields.length === 0 && (
          <p className="text-[13px] text-zinc-500">None. Properties like plan or company can fill {"{{placeholders}}"} in emails.</p>
        )}
        <datalist id="contact-property-keys">
          {(properties.data ?? []).map((p) => (
            <option key={p.key} value={p.key}>
              {p.label}
            </option>
          ))}
        </datalist>
        {rows.fields.map((row, index) => {
          const rowErrors = errors.meta_rows?.[index];
          const type = types.get(metaRows?.[index]?.key?.trim() ?? "");
          const valueProps = {
            "aria-label": `Property ${index + 1} value`,
            "aria-invalid": rowErrors?.value ? true : undefined,
            ...form.register(`meta_rows.${index}.value`),
          };
          return (
            <div key={row.id} className="flex items-start gap-2">
              <div className="w-2/5">
                <Input
                  aria-label={`Property ${index + 1} name`}
                  list="contact-property-keys"
                  placeholder="plan"
                  aria-invalid={rowErrors?.key ? true : undefined}
                  {...form.register(`meta_rows.${index}.key`)}
                />
                {rowErrors?.key?.message && <p className="mt-1 text-[13px] font-medium text-red-600">{rowErrors.key.message}</p>}
              </div>
              <div className="flex-1">
                {type === "boolean" ? (
                  <NativeSelect
                    {...valueProps}
                    options={[
                      { value: "", label: "Choose…" },
                      { value: "true", label: "Yes" },
                      { value: "false", label: "No" },
                    ]}
                  />
                ) : (
                  <Input
                    {...valueProps}
                    type={type === "number" ? "number" : "text"}
                    step={type === "number" ? "any" : undefined}
                    placeholder={type === "date" ? "2026-03-01" : type === "number" ? "0" : "pro"}
                  />
                )}
                {type && <p className="mt-1 text-[12px] text-zinc-500">Typed {type === "boolean" ? "yes / no" : type}</p>}
                {rowErrors?.value?.message && <p className="mt-1 text-[13px] font-medium text-red-600">{rowErrors.value.message}</p>}
              </div>
              <Button variant="ghost" size="icon" className="size-9" aria-label={`Remove property ${index + 1}`} onClick={() => rows.remove(index)}>
                <X aria-hidden />
              </Button>
            </div>
          );
        })}
        {errors.meta_rows?.message && <p className="text-[13px] font-medium text-red-600">{errors.meta_rows.message}</p>}
        <div>
          <Button variant="secondary" size="sm" onClick={() => rows.append({ key: "", value: "", kind: "string" })}>
            <Plus aria-hidden />
            Add property
          </Button>
        </div>
      </fieldset>
    </FormDialog>
  );
}
