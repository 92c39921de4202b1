/** The introduction of the API reference: the conventions every operation shares. */
export const apiDescription = `
The /v1 API of Mailplatform: contacts, segments, templates, broadcasts with follow-up sequences,
sender inboxes and domains, emails and threads, webhooks and team invitations.

## Authentication
Send \`Authorization: Bearer <API key>\`. API keys are JWTs created in the dashboard (Settings → API
keys), with \`POST /v1/api-keys\`, or with \`npm run cli -- api-key:create\`. A key belongs to one
organization and acts as the member who created it, with that member's role. A revoked key is refused
from its next request. A missing, malformed, expired or revoked credential is **401 UNAUTHORIZED**.

## Conventions
- JSON with snake_case fields; timestamps are ISO 8601 in UTC with milliseconds; ids are UUIDs.
- Unknown body fields are ignored; server-owned fields (id, organization_id, status, counters,
  created_by, created_at, updated_at) are never taken from a request.
- A POST that creates a record answers **201** with it; actions and deletes answer **200**.
- Every record belongs to the caller's organization. An id of another organization is answered
  exactly like an id that does not exist: **404 NOT_FOUND**.
- String limits: names 200 characters, subjects 998, HTML and text 1 MB, tags 50 (at most 20, lowercase),
  comments 20 000. Text with a NUL character is refused. Request bodies are limited to 5 MB
  (CSV imports: 50 MB of decoded CSV).

## Errors
\`{ "error": string, "code": string, "details"?: any }\`. \`VALIDATION_ERROR\` (400) lists each problem in
\`details\` as \`{ path, message }\`. Other codes: BROADCAST_NOT_EDITABLE and DOMAIN_NOT_VERIFIED (400),
UNAUTHORIZED (401), FORBIDDEN and INVITATION_EMAIL_MISMATCH (403), NOT_FOUND (404), CONFLICT,
ALREADY_MEMBER, INVITATION_ALREADY_ACCEPTED, INVITATION_NOT_PENDING (409), INVITATION_EXPIRED (410),
PAYLOAD_TOO_LARGE (413), RATE_LIMITED (429, with Retry-After), INTERNAL_ERROR (500, never with internals).

## Pagination
Cursor lists answer \`{ "object": "list", "has_more", "data" }\`, newest first. \`limit\` is 1 to 100
(default 20), \`after=<id>\` gives the page of older items after that item, \`before=<id>\` the page of newer
items before it; the two cannot be combined. Invalid paging parameters answer **422** with
\`{ "name": "validation_error", "statusCode": 422, "message" }\`. Templates, topics and emails (cursor mode)
are always paginated; broadcasts, segments, domains, webhooks, inboxes and API keys return everything
when \`limit\` is omitted. \`GET /v1/contacts\` keeps its own \`{ contacts, total, limit, offset }\` shape and,
without \`limit\`, streams every matching contact. \`GET /v1/emails\` pages by \`page\` and \`limit\` unless
\`after\` or \`before\` is given.
`.trim();
