import type { FieldValues, Path, UseFormReturn } from "react-hook-form";

/**
 * After an autosave's reset (`keepDirtyValues`), marks dirty again each field edited while the save
 * ran. react-hook-form keeps such an edit but then reports the form clean (isDirty false), so the
 * next round saved nothing ("Saved", the edit only in the page) and leaving would not warn: a
 * button added to the email while the previous autosave was on its way was lost so. `sent`: the
 * values the save sent, copied deeply before it (react-hook-form's reset can change the arrays
 * getValues handed out). Only fields that changed since are marked, so a value the server
 * normalises (a tag's case) is not saved again and again.
 */
export function markEditedSince<T extends FieldValues>(form: Pick<UseFormReturn<T>, "getValues" | "setValue">, sent: T) {
  const now = form.getValues();
  for (const name of Object.keys(now) as Path<T>[]) {
    if (JSON.stringify(now[name]) !== JSON.stringify(sent[name])) form.setValue(name, now[name], { shouldDirty: true });
  }
}
