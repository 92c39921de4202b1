import { createFormControl } from "react-hook-form";
import { describe, expect, it } from "vitest";
import { markEditedSince } from "./mark-edited";

type Values = { subject: string; content_json: string; tags: string[] };

/** A form as the broadcast editor keeps one, without React: react-hook-form's own control. */
function editorForm() {
  const form = createFormControl<Values>({ defaultValues: { subject: "Hi", content_json: "", tags: [] } });
  // As a rendered editor's: mounted (getValues answers the values, not the defaults), and reading
  // isDirty and dirtyFields (computed only for a form that reads them).
  form.control._state.mount = true;
  Object.assign(form.control._proxyFormState, { isDirty: true, dirtyFields: true });
  for (const name of ["subject", "content_json", "tags"] as const) form.register(name);
  return { form, isDirty: () => form.control._formState.isDirty };
}

describe("markEditedSince", () => {
  it("keeps an edit made while an autosave ran dirty after the save's reset, so the next round saves it", () => {
    const { form, isDirty } = editorForm();
    form.setValue("content_json", '{"blocks":["image"]}', { shouldDirty: true });
    const sent = structuredClone(form.getValues());
    // While the save is on its way, a button is added.
    form.setValue("content_json", '{"blocks":["image","button"]}', { shouldDirty: true });
    // The save answers with what was sent; the editor resets to it, keeping the edit.
    form.reset({ ...sent }, { keepDirtyValues: true });
    expect(form.getValues("content_json")).toBe('{"blocks":["image","button"]}');
    expect(isDirty()).toBe(false); // react-hook-form's own verdict: what lost the button
    markEditedSince(form, sent);
    expect(isDirty()).toBe(true);
    expect(form.control._formState.dirtyFields).toMatchObject({ content_json: true });
  });

  it("marks nothing when nothing changed during the save, even where the server normalised a value", () => {
    const { form } = editorForm();
    form.setValue("tags", ["News"], { shouldDirty: true });
    const sent = structuredClone(form.getValues());
    form.reset({ ...sent, tags: ["news"] }, { keepDirtyValues: true });
    const marked: string[] = [];
    markEditedSince({ getValues: form.getValues, setValue: (name, value, options) => (marked.push(name), form.setValue(name, value, options)) }, sent);
    // Marking the kept "News" would save it again, the server answer "news" again, and so on.
    expect(marked).toEqual([]);
  });
});
