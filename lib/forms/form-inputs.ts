import type { PropertyType } from "@/lib/schemas/filter-language";

/** One input of a form as its pages and snippet draw it. */
export type FormInput = { key: string; label: string; type: "email" | "text" | "number" | "date" | "checkbox"; required: boolean };

const contactLabels: Record<string, string> = { email: "Email", first_name: "First name", last_name: "Last name" };
const inputTypes: Record<PropertyType, FormInput["type"]> = { string: "text", number: "number", boolean: "checkbox", date: "date" };

/** The inputs of a form's fields: contact fields by their names, typed properties by their labels and types. */
export function formInputs(fields: string[], properties: ReadonlyMap<string, { label: string | null; type: PropertyType }>): FormInput[] {
  return fields.map((key) => {
    if (key in contactLabels) return { key, label: contactLabels[key], type: key === "email" ? "email" : "text", required: key === "email" };
    const property = properties.get(key);
    return { key, label: property?.label || key, type: property ? inputTypes[property.type] : "text", required: false };
  });
}
