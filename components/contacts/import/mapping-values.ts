import type { FieldErrors, Resolver } from "react-hook-form";
import { importContactsInput, type AddressFlag, type ColumnMapping } from "@/lib/schemas/contacts";
import { contactProperties, targetLabels, type ImportTarget } from "./guess-property";

export type MappingRow = { target: ImportTarget; custom_key: string };
export type ImportValues = { mappings: MappingRow[]; handle_missing: "create" | "skip"; segment_id: string; skip_disposable: boolean; skip_role: boolean };

/** The flags the import is asked to leave out (`skip_flagged`). */
export const skippedFlags = (values: Pick<ImportValues, "skip_disposable" | "skip_role">): AddressFlag[] => [
  ...(values.skip_disposable ? (["disposable"] as const) : []),
  ...(values.skip_role ? (["role"] as const) : []),
];

/** The column_mappings for the mapped columns, with the index of each column in the file. */
export function mappedColumns(headers: string[], mappings: MappingRow[]): { column: number; mapping: ColumnMapping }[] {
  return mappings.flatMap((row, column) =>
    row.target === "ignore"
      ? []
      : [{ column, mapping: { csv_column: headers[column], property_name: row.target === "custom" ? row.custom_key.trim() : row.target } }],
  );
}

type RowErrors = { target?: { type: string; message: string }; custom_key?: { type: string; message: string } };

/**
 * The import form's rules: one column to email, each contact property at most once, custom
 * property names filled in and distinct; then the API's own schema over the request it makes.
 */
export function mappingResolver(headers: string[]): Resolver<ImportValues> {
  return async (values) => {
    const rows: (RowErrors | undefined)[] = values.mappings.map(() => undefined);
    const setRow = (index: number, field: keyof RowErrors, message: string) => {
      rows[index] = { ...rows[index], [field]: { type: "mapping", message } };
    };
    const seen = new Map<string, number>();
    values.mappings.forEach((row, index) => {
      if (row.target === "ignore") return;
      if (row.target === "custom") {
        const key = row.custom_key.trim();
        if (!key) return setRow(index, "custom_key", "Name the property");
        if ((contactProperties as readonly string[]).includes(key))
          return setRow(index, "custom_key", `Choose "${targetLabels[key as ImportTarget]}" in the list instead`);
        if (seen.has(`custom:${key}`)) return setRow(index, "custom_key", "Another column already uses this name");
        seen.set(`custom:${key}`, index);
        return;
      }
      if (seen.has(row.target)) setRow(index, "target", `Only one column can be ${targetLabels[row.target]}`);
      else seen.set(row.target, index);
    });

    const errors: Record<string, unknown> = {};
    if (rows.some(Boolean)) errors.mappings = rows;
    if (!seen.has("email")) {
      errors.mappings = Object.assign(rows.slice(), { type: "required", message: "Map one column to Email: contacts are matched by their email address." });
    }
    if (!errors.mappings) {
      const parsed = importContactsInput.safeParse({
        file_content: "",
        column_mappings: mappedColumns(headers, values.mappings).map((m) => m.mapping),
        handle_missing: values.handle_missing,
        ...(values.segment_id ? { segment_id: values.segment_id } : {}),
      });
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        errors.mappings = Object.assign(rows.slice(), { type: "schema", message: `${issue.path.join(".")}: ${issue.message}` });
      }
    }
    return Object.keys(errors).length ? { values: {}, errors: errors as FieldErrors<ImportValues> } : { values, errors: {} };
  };
}
