export type JsonSchema = {
  $ref?: string;
  title?: string;
  type?: string | string[];
  format?: string;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
};

export type Parameter = { name: string; in: "path" | "query" | "header"; required?: boolean; description?: string; schema?: JsonSchema };

export type MediaContent = { "application/json"?: { schema?: JsonSchema } };

export type ResponseObject = { $ref?: string; description?: string; content?: MediaContent };

export type OperationObject = {
  operationId?: string;
  tags?: string[];
  summary?: string;
  description?: string;
  /** Parameters several operations share are references to `components/parameters`. */
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { required?: boolean; content?: MediaContent };
  responses?: Record<string, ResponseObject>;
};

export type OpenApiDocument = {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  /** Events POSTed to webhooks, by type: each a `post` whose body is the event's payload. */
  webhooks?: Record<string, { post?: OperationObject }>;
  components?: { schemas?: Record<string, JsonSchema>; responses?: Record<string, ResponseObject>; parameters?: Record<string, Parameter> };
};

/** An operation's parameters, the shared ones (`Id`, `Limit`…) looked up. */
export function resolveParameters(op: OperationObject, doc: OpenApiDocument): Parameter[] {
  const named = (ref: string | undefined) => (ref ? doc.components?.schemas?.[ref.split("/").pop() ?? ""] : undefined);
  return (op.parameters ?? []).flatMap((given) => {
    const param = "$ref" in given ? doc.components?.parameters?.[given.$ref.split("/").pop() ?? ""] : given;
    if (!param) return [];
    // A named schema (Uuid) shown by what it is: string (uuid).
    return [{ ...param, schema: named(param.schema?.$ref) ?? param.schema }];
  });
}

/** A response as written, or the shared one it references (its own description, when it has one, wins). */
export function resolveResponse(response: ResponseObject, doc: OpenApiDocument): ResponseObject {
  if (!response.$ref) return response;
  const shared = doc.components?.responses?.[response.$ref.split("/").pop() ?? ""];
  return shared ? { ...shared, description: response.description ?? shared.description } : response;
}

export type DocumentedOperation = OperationObject & { method: string; path: string; id: string };

const methodOrder = ["get", "post", "put", "patch", "delete"];

export const slug = (value: string) =>
  value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/** Operations grouped by their first tag, in the document's tag order. */
export function groupByTag(doc: OpenApiDocument): { tag: string; operations: DocumentedOperation[] }[] {
  const groups = new Map<string, DocumentedOperation[]>((doc.tags ?? []).map((t) => [t.name, []]));
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of methodOrder) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? "Other";
      if (!groups.has(tag)) groups.set(tag, []);
      groups.get(tag)!.push({ ...op, method, path, id: slug(op.operationId ?? `${method}-${path}`) });
    }
  }
  return [...groups].filter(([, ops]) => ops.length).map(([tag, operations]) => ({ tag, operations }));
}
