import type { Contract } from "@/lib/contracts/contract";

const camel = (segment: string) => segment.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase());
const pascal = (segment: string) => camel(segment).replace(/^\w/, (letter) => letter.toUpperCase());

/** `deliveries` → `delivery`, `inboxes` → `inbox`, `contacts` → `contact`: enough English for our paths. */
const singular = (noun: string) =>
  noun
    .replace(/ies$/, "y")
    .replace(/(ss|sh|ch|x)es$/, "$1")
    .replace(/([^s])s$/, "$1");

const isParam = (segment: string | undefined) => segment?.startsWith("{") ?? false;
const isPlural = (noun: string) => /[^su]s$/.test(noun);
const itemVerbs: Record<string, string> = { GET: "get", PUT: "update", PATCH: "update", DELETE: "delete", POST: "post" };

/**
 * The operation's `operationId`: the one its contract declares, or one read from its method and
 * path the way SDKs name their methods: `GET /v1/contacts` → `listContacts`, `POST /v1/contacts`
 * → `createContact`, `PUT /v1/broadcasts/{broadcastId}/steps/{stepId}` → `updateBroadcastStep`,
 * `POST /v1/domains/{id}/verify` → `verifyDomain`, `GET /v1/broadcasts/{id}/report` →
 * `getBroadcastReport`. A contract whose path reads otherwise declares its own.
 */
export function operationIdOf(contract: Pick<Contract, "method" | "path" | "operationId">): string {
  if (contract.operationId) return contract.operationId;
  const segments = contract.path.replace(/^\/v1\//, "").split("/");
  const last = segments[segments.length - 1];
  // A resource named before a parameter is one of them: `broadcasts/{id}` is a broadcast.
  const nouns = segments.flatMap((segment, i) => (isParam(segment) ? [] : [isParam(segments[i + 1]) ? singular(segment) : segment])).map(pascal);
  const before = nouns.slice(0, -1).join("");
  if (isParam(last)) return itemVerbs[contract.method] + nouns.join("");
  if (contract.method === "GET") return (isPlural(last) ? "list" : "get") + nouns.join("");
  if (contract.method !== "POST") return itemVerbs[contract.method] + nouns.join("");
  // POST to a collection creates one of it; POST to anything else does what its last word says.
  if (isPlural(last)) return "create" + before + singular(pascal(last));
  return camel(last) + before;
}
