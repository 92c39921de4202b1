import { invalidField } from "@/lib/domain/errors";
import type { PropertyType } from "@/lib/schemas/filters";
import { checkPropertyValue, type MetadataValue } from "./property-values";
import { propertyTypes, type AudienceClient } from "./scope";

type Metadata = Record<string, MetadataValue>;

/**
 * Metadata as written, checked against the organization's typed properties: a typed key's value
 * must be of its type (a date-time is stored in UTC), otherwise 400 naming `<path>.<key>`. Untyped
 * keys stay free text, as before types. `types` can be read once for a batch.
 */
export function typedMetadata(metadata: Metadata, types: ReadonlyMap<string, PropertyType>, path = "metadata"): Metadata {
  if (types.size === 0) return metadata;
  let result = metadata;
  for (const [key, value] of Object.entries(metadata)) {
    const type = types.get(key);
    if (!type) continue;
    const checked = checkPropertyValue(type, value);
    if (!checked.ok) throw invalidField(`${path}.${key}`, checked.message);
    if (checked.value !== value) {
      if (result === metadata) result = { ...metadata };
      result[key] = checked.value;
    }
  }
  return result;
}

/** typedMetadata with the types read for this one write (none given: nothing to check). */
export async function checkMetadata(client: AudienceClient, organizationId: string, metadata: Metadata | undefined, path = "metadata") {
  if (!metadata || Object.keys(metadata).length === 0) return metadata;
  return typedMetadata(metadata, await propertyTypes(client, organizationId), path);
}
