"use client";

import type { FormEventHandler, ReactNode } from "react";
import type { FieldValues, UseFormReturn } from "react-hook-form";
import { cn } from "@/lib/client/cn";
import { Button } from "./button";
import { Dialog } from "./dialog";
import { FormError } from "./form-field";

type FormDialogProps<T extends FieldValues> = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  size?: "sm" | "md" | "lg";
  form: UseFormReturn<T>;
  /** The form element's id; the footer's submit button sits outside the form and points at it. */
  formId: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitLabel: ReactNode;
  className?: string;
  children: ReactNode;
};

/** A react-hook-form form in a dialog: the server's form-level error on top, Cancel and submit in the footer. */
export function FormDialog<T extends FieldValues>({
  open,
  onOpenChange,
  title,
  description,
  size,
  form,
  formId,
  onSubmit,
  submitLabel,
  className,
  children,
}: FormDialogProps<T>) {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) form.reset();
        onOpenChange(next);
      }}
      size={size}
      title={title}
      description={description}
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={form.formState.isSubmitting}>
            {submitLabel}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={onSubmit} className={cn("flex flex-col gap-4", className)} noValidate>
        <FormError message={form.formState.errors.root?.server?.message} />
        {children}
      </form>
    </Dialog>
  );
}
