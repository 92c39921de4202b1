"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Plus, SlidersHorizontal } from "lucide-react";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { Badge } from "@/components/ui/badge";
import { bodyResolver } from "@/components/ui/body-resolver";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { RelativeTime } from "@/components/ui/date";
import { EmptyState } from "@/components/ui/empty-state";
import { FormDialog } from "@/components/ui/form-dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { ListState } from "@/components/ui/list-state";
import { Select } from "@/components/ui/select";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Table, TableActionsHeaderCell, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import { toast } from "@/components/ui/toast";
import { useDeleteAction } from "@/components/ui/use-delete-action";
import { RowActions, RowDeleteItem } from "@/components/ui/row-actions";
import { apiCall } from "@/lib/client/api";
import { submitToApi } from "@/lib/client/form-errors";
import { queryKeys } from "@/lib/client/query-keys";
import { useContactProperties, type ContactProperty } from "@/lib/client/resources/contact-properties";
import { createContactPropertyInput, type CreateContactPropertyInput } from "@/lib/schemas/contact-properties";
import type { PropertyType } from "@/lib/schemas/filter-language";

const PROPERTY_TYPE_OPTIONS: { value: PropertyType; label: string; description: string }[] = [
  { value: "string", label: "Text", description: "Any text, e.g. a plan name or a company." },
  { value: "number", label: "Number", description: "Compared as a number: seats, lifetime value, score." },
  { value: "boolean", label: "Yes / no", description: "true or false; an import reads yes/no, true/false, 1/0." },
  { value: "date", label: "Date", description: "An ISO date such as 2026-03-01, or a date and time." },
];

const typeLabel = (type: PropertyType) => PROPERTY_TYPE_OPTIONS.find((option) => option.value === type)?.label ?? type;

type Values = { key: string; label: string; type: PropertyType };

const toBody = (values: Values): CreateContactPropertyInput => ({
  key: values.key,
  type: values.type,
  ...(values.label.trim() && { label: values.label.trim() }),
});
const resolver = bodyResolver<Values, typeof createContactPropertyInput>(createContactPropertyInput, toBody);

function CreatePropertyDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const queryClient = useQueryClient();
  const form = useForm<Values>({ resolver, defaultValues: { key: "", label: "", type: "string" } });
  const { errors } = form.formState;
  const submit = submitToApi(form, ["key", "label", "type"], async (values) => {
    const created = await apiCall("POST /v1/contact-properties", { body: toBody(values) });
    await queryClient.invalidateQueries({ queryKey: queryKeys.contactProperties.all() });
    toast.success(`Added ${created.label}`, `Writes of metadata.${created.key} must now be ${typeLabel(created.type).toLowerCase()}.`);
    onOpenChange(false);
    form.reset();
  });
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Add a property"
      description="A typed custom field of your contacts, stored as metadata. Every write of it must then be of its type."
      form={form}
      formId="create-property"
      onSubmit={submit}
      submitLabel="Add property"
    >
      <FormField label="Key" error={errors.key?.message} hint="Lowercase letters, digits and _, starting with a letter: metadata.<key> in the API." required>
        <Input autoFocus autoComplete="off" placeholder="plan" {...form.register("key")} />
      </FormField>
      <FormField label="Label" error={errors.label?.message} hint="Optional. How the dashboard names it; the key otherwise.">
        <Input autoComplete="off" placeholder="Plan" {...form.register("label")} />
      </FormField>
      <FormField label="Type" error={errors.type?.message} required>
        <Controller
          control={form.control}
          name="type"
          render={({ field }) => <Select aria-label="Type" value={field.value} onValueChange={field.onChange} options={PROPERTY_TYPE_OPTIONS} />}
        />
      </FormField>
    </FormDialog>
  );
}

/** Settings → Properties: the organization's typed contact properties. */
export function PropertiesSection() {
  const properties = useContactProperties();
  const [creating, setCreating] = useState(false);
  const deleting = useDeleteAction<ContactProperty>({
    run: (property) => apiCall("DELETE /v1/contact-properties/{id}", { params: { id: property.id } }),
    done: (property) => [`Deleted ${property.label}`, "Contacts keep their values, now as free text."],
    failure: "Could not delete the property",
    invalidate: [queryKeys.contactProperties.all()],
  });
  const rows = properties.data ?? [];
  const addButton = (
    <Button onClick={() => setCreating(true)}>
      <Plus aria-hidden />
      Add property
    </Button>
  );
  return (
    <Card>
      <CardHeader
        title="Contact properties"
        description="Typed fields of your contacts. Filters compare them by type, imports convert them, and emails can use them as {{metadata.key}}."
        actions={rows.length ? addButton : undefined}
      />
      <ListState
        query={properties}
        loading={<SkeletonRows rows={3} columns={4} />}
        errorTitle="Could not load the properties"
        isEmpty={rows.length === 0}
        empty={
          <EmptyState icon={SlidersHorizontal} title="No properties yet" action={addButton}>
            Add a property such as a plan, a number of seats or a renewal date, so segments can filter on it by its type.
          </EmptyState>
        }
      >
        <Table>
          <TableHead>
            <tr>
              <TableHeaderCell>Property</TableHeaderCell>
              <TableHeaderCell>Key</TableHeaderCell>
              <TableHeaderCell>Type</TableHeaderCell>
              <TableHeaderCell>Added</TableHeaderCell>
              <TableActionsHeaderCell />
            </tr>
          </TableHead>
          <TableBody>
            {rows.map((property) => (
              <TableRow key={property.id}>
                <TableCell className="font-medium text-zinc-900">{property.label}</TableCell>
                <TableCell>
                  <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-700">metadata.{property.key}</code>
                </TableCell>
                <TableCell>
                  <Badge tone="neutral">{typeLabel(property.type)}</Badge>
                </TableCell>
                <TableCell className="text-[13px] text-zinc-600">
                  <RelativeTime value={property.created_at} />
                </TableCell>
                <TableCell className="w-10">
                  <RowActions name={property.label}>
                    <RowDeleteItem onSelect={() => deleting.ask(property)} />
                  </RowActions>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </ListState>
      <CreatePropertyDialog open={creating} onOpenChange={setCreating} />
      <ConfirmDialog
        {...deleting.dialog}
        title={`Delete ${deleting.target?.label ?? "property"}?`}
        description={
          <>
            <strong className="font-medium text-zinc-800">Contacts keep their values</strong>, which become free text again: writes are no longer checked, and
            filters compare them as text.
          </>
        }
        confirmLabel="Delete property"
      />
    </Card>
  );
}
