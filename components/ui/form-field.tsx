"use client";

import { cloneElement, isValidElement, useId, type ReactElement, type ReactNode } from "react";
import { cn } from "@/lib/client/cn";
import { Label } from "./label";

type ControlProps = { id?: string; "aria-describedby"?: string; "aria-invalid"?: boolean; "aria-required"?: boolean };

type FormFieldProps = {
  label: ReactNode;
  /** The control; it receives id, aria-describedby and aria-invalid. */
  children: ReactElement<ControlProps>;
  error?: string;
  hint?: ReactNode;
  required?: boolean;
  /** Extra content on the label's line, right-aligned (a "Forgot?" link, a counter). */
  aside?: ReactNode;
  className?: string;
  id?: string;
};

// Schema messages read "must be an email address"; under a field they start a sentence.
const sentence = (message: string) => message.charAt(0).toUpperCase() + message.slice(1);

/** A label, one control, a hint and an error, wired together for screen readers. */
export function FormField({ label, children, error, hint, required, aside, className, id }: FormFieldProps) {
  const generated = useId();
  const controlId = id ?? children.props.id ?? `field-${generated}`;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const describedBy = [children.props["aria-describedby"], hintId, errorId].filter(Boolean).join(" ") || undefined;
  const control = isValidElement(children)
    ? cloneElement(children, {
        id: controlId,
        "aria-describedby": describedBy,
        "aria-invalid": error ? true : undefined,
        "aria-required": required || undefined,
      })
    : children;
  return (
    <div className={cn("flex flex-col gap-1.5", className)}>
      <div className="flex items-baseline justify-between gap-2">
        <Label htmlFor={controlId}>
          {label}
          {required && (
            <span className="ml-0.5 text-zinc-400" aria-hidden>
              *
            </span>
          )}
        </Label>
        {aside}
      </div>
      {control}
      {hint && !error && (
        <p id={hintId} className="text-[13px] text-zinc-500">
          {hint}
        </p>
      )}
      {hint && error && (
        <p id={hintId} className="sr-only">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-[13px] font-medium text-red-600" role="alert">
          {sentence(error)}
        </p>
      )}
    </div>
  );
}

/** An error that belongs to the whole form (react-hook-form's `root` errors). */
export function FormError({ message, className }: { message?: string; className?: string }) {
  if (!message) return null;
  return (
    <div role="alert" className={cn("rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700", className)}>
      {message}
    </div>
  );
}
