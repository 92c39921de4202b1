import type { FieldValues, Path, UseFormReturn, UseFormSetError } from "react-hook-form";
import { ApiError, errorMessage } from "./api";

/**
 * Puts a server error onto the form: each `details[].path` on its field, everything else
 * (unknown fields, errors without details, network failures) on `root.server`.
 * `fields` lists the form's field names; a path under one of them (`smtp.host`) lands on it.
 * Returns true when at least one field got a message.
 */
export function applyServerErrors<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>, fields?: readonly string[]): boolean {
  const known = (path: string) => !fields || fields.some((field) => path === field || path.startsWith(`${field}.`));
  let placedOnField = false;
  const unplaced: string[] = [];
  if (error instanceof ApiError && error.details.length) {
    for (const detail of error.details) {
      if (detail.path && known(detail.path)) {
        setError(detail.path as Path<T>, { type: "server", message: detail.message }, { shouldFocus: !placedOnField });
        placedOnField = true;
      } else {
        unplaced.push(detail.path ? `${detail.path}: ${detail.message}` : detail.message);
      }
    }
    if (unplaced.length) setError("root.server" as Path<T>, { type: "server", message: unplaced.join(". ") });
    return placedOnField;
  }
  setError("root.server" as Path<T>, { type: "server", message: errorMessage(error) });
  return false;
}

/**
 * The submit handler of a form that calls the API: `form.handleSubmit(action)`, with a refusal put
 * onto the form by applyServerErrors (fields named in `fields`, the rest on `root.server`).
 */
export function submitToApi<T extends FieldValues>(
  form: Pick<UseFormReturn<T>, "handleSubmit" | "setError">,
  fields: readonly string[],
  action: (values: T) => Promise<unknown>,
) {
  return form.handleSubmit(async (values) => {
    try {
      await action(values);
    } catch (error) {
      applyServerErrors(error, form.setError, fields);
    }
  });
}
