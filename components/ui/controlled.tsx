"use client";

import type { ReactElement } from "react";
import { Controller, type Control, type ControllerRenderProps, type FieldPath, type FieldValues } from "react-hook-form";

export type ControlAria = { id?: string; "aria-describedby"?: string; "aria-invalid"?: boolean; "aria-required"?: boolean };

type ControlledProps<T extends FieldValues, N extends FieldPath<T>> = ControlAria & {
  control: Control<T>;
  name: N;
  render: (props: { field: ControllerRenderProps<T, N>; aria: ControlAria }) => ReactElement;
};

/**
 * react-hook-form's Controller as a FormField child: FormField gives its child the id and aria
 * attributes that tie the label, hint and error to the control, and a bare Controller would drop
 * them. This hands them to `render` to spread on the real control.
 */
export function Controlled<T extends FieldValues, N extends FieldPath<T>>({ control, name, render, ...aria }: ControlledProps<T, N>) {
  return <Controller control={control} name={name} render={({ field }) => render({ field, aria })} />;
}
