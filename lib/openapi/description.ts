import { webhookEventTypes } from "@/lib/schemas/webhooks";

/** The introduction of the API reference: the conventions every operation shares. */
export const apiDescription = `
The /v1 API of Mailplatform: contacts, segments, templates, broadcasts with follow-up sequences,
sender inboxes and domains, emails and threads, webhooks and team invitations.

## Authentication
Send \`Authorization: Bearer <API key>\`. API keys are JWTs created in the dashboard (Settings → API
keys), with \`POST /v1/api-keys\`, or with \`npm run cli -- api-key:create\`. A key belongs to one
organization and acts as the member who created it, with that member's role. A revoked key is refused
from its next request. A missing, malformed, expired or revoked credential is **401 UNAUTHORIZED**.
The dashboard's session cookie is accepted too, but a write with it must come from the dashboard
itself (an \`Origin\` of the application, or \`Sec-Fetch-Site: same-origin\`): otherwise **403 FORBIDDEN**.

## Conventions
- JSON with snake_case fields; timestamps are ISO 8601 in UTC with milliseconds; ids are UUIDs.
- Unknown body fields are ignored; server-owned fields (id, organization_id, status, counters,
  created_by, created_at, updated_at) are never taken from a request.
- A POST that creates a record answers **201** with it; actions and deletes answer **200**.
- Every record belongs to the caller's organization. An id of another organization is answered
  exactly like an id that does not exist: **404 NOT_FOUND**.
- A request body must be JSON sent with \`Content-Type: application/json\`: anything else is
  **415 UNSUPPORTED_MEDIA_TYPE** (a POST without a body needs no Content-Type; \`POST /v1/media\` also takes multipart/form-data).
- String limits: names 200 characters, subjects 998, HTML and text 1 MB, tags 50 (at most 20, lowercase),
  comments 20 000. Contact metadata: at most 50 keys and 16 KB as JSON. Dates: years 1970 to 9999.
  Text with a NUL character is refused. Request bodies are limited to 5 MB (CSV imports: 50 MB of
  decoded CSV, rows of at most a million characters).
- An unknown path under /v1 answers **404 NOT_FOUND** with the error body.

## Rate limits
Each API key (or signed-in user) and each organization, all its keys and users together, has a token
bucket: by default bursts of 100 requests refilled at 50 per second per key, and 200 at 100 per second
per organization. Failed authentications are limited per client address (by default 30 a minute); while
an address is over, it is refused before its credentials are even read. Every answer carries
\`RateLimit-Policy\` and \`RateLimit\` (draft-ietf-httpapi-ratelimit-headers), e.g.
\`RateLimit-Policy: "key";q=100;w=2, "organization";q=200;w=2\` and \`RateLimit: "key";r=97;t=1, "organization";r=180;t=1\`
(\`r\` requests left, \`t\` seconds until full). Over a limit: **429 RATE_LIMITED** with \`Retry-After\` in seconds.

## Errors
\`{ "error": string, "code": string, "details"?: any }\`. \`VALIDATION_ERROR\` (400) lists each problem in
\`details\` as \`{ path, message }\`. Other codes: BROADCAST_NOT_EDITABLE, BROADCAST_NOT_PAUSABLE, BROADCAST_NOT_RESUMABLE, BROADCAST_NOT_SENT, DOMAIN_NOT_VERIFIED,
AUTOMATION_NOT_EDITABLE, AUTOMATION_NOT_ACTIVE and AUTOMATION_ARCHIVED (400),
UNAUTHORIZED (401), FORBIDDEN and INVITATION_EMAIL_MISMATCH (403), NOT_FOUND (404), CONFLICT,
ALREADY_MEMBER, INVITATION_ALREADY_ACCEPTED, INVITATION_NOT_PENDING, SEGMENT_IS_DYNAMIC (409), INVITATION_EXPIRED (410),
PAYLOAD_TOO_LARGE (413), UNSUPPORTED_MEDIA_TYPE (415), RATE_LIMITED (429, with Retry-After),
INTERNAL_ERROR (500, never with internals), SERVICE_UNAVAILABLE (503, with Retry-After: the database is briefly
unreachable; repeat the request).

## Pagination
Cursor lists answer \`{ "object": "list", "has_more", "data" }\`, newest first. \`limit\` is 1 to 100
(default 20), \`after=<id>\` gives the page of older items after that item, \`before=<id>\` the page of newer
items before it; the two cannot be combined. Invalid paging parameters answer **422** with
\`{ "name": "validation_error", "statusCode": 422, "message" }\`. Templates, topics and emails (cursor mode)
are always paginated; broadcasts, segments, domains, webhooks, inboxes and API keys return everything
when \`limit\` is omitted. \`GET /v1/contacts\` keeps its own \`{ contacts, total, limit, offset }\` shape and,
without \`limit\`, streams every matching contact. \`GET /v1/emails\` pages by \`page\` and \`limit\` unless
\`after\` or \`before\` is given.

## Sequences
A broadcast's steps follow its first email. Step *n* goes to a recipient \`delay_minutes\` after their
email of step *n − 1* was sent, checked every 15 seconds. When it falls due the recipient leaves the
sequence if they replied to, unsubscribed from, bounced or complained about any email of the broadcast,
if their address is suppressed, if they are in any \`exit_if_in_segment_ids\` segment, or if they are
missing from any \`exit_if_not_in_segment_ids\` segment; their email of that step is then recorded as
\`cancelled\` and no later step follows. A reply also cancels a follow-up already waiting in the queue.
\`sales\` steps are replies in the first email's thread: subject \`Re: <first subject>\`, \`In-Reply-To\` the
previous message, \`References\` the whole chain, same inbox and sender. \`marketing\` steps are new
emails with the step's subject (or its template's, or the broadcast's). A broadcast stays \`sending\`
until every step has been dispatched to everyone it can reach. Follow-ups count in \`total_recipients\`.

## Replies
Inboxes with IMAP settings are read every minute (INBOX, read-only: nothing is marked as read).
A message whose \`In-Reply-To\` or \`References\` names a Message-ID of the organization's emails is stored
as a \`received\` email in that email's thread, sets its \`replied_at\`, counts once per recipient in the
broadcast's \`replied_count\` and emits \`email.replied\`. Automatic answers (\`Auto-Submitted\`, delivery
reports) and other messages are left alone.

## Open and click tracking
While the organization's \`tracking_enabled\` is on, each sent HTML email carries a 1×1 pixel and its
http(s) links lead through signed redirects (links to this service, such as the unsubscribe page, are
left as they are). A person's first open sets \`opened_at\`, their first click \`clicked_at\`; every open is
added to \`opens\` as \`{ at, user_agent, ip }\` and every click to \`clicked_links\` as \`{ url, at }\` (at most
100 entries each). A redirect only ever leads to a link of that very email; anything else is 404.
Opens and clicks by programs are told apart when they arrive: Apple Mail Privacy Protection (which loads
every email's images, read or not), requests without a user agent, known bots and scanners, and link scanners
that follow every link of an email (two or more) within 10 seconds of its delivery. Their entries carry
\`machine\` (the reason), they set neither \`opened_at\` nor \`clicked_at\` nor the broadcast's counts, their
\`email.opened\`/\`email.clicked\` events carry \`machine: true\`, and reports count them apart
(\`machine_opens\`, \`machine_clicks\`) and leave them out of every rate. Gmail's and Yahoo's image proxies
fetch when the person opens the email: those opens are people's (the entry notes \`proxy\`).
A report's rates are fractions of the emails that could show them: delivery of those that asked a relay
offering DSN for a delivery report (never mail sent through an inbox), opens and clicks of those accepted
with the pixel or a tracked link; a rate with no such email is null ("not reported", "not tracked"), not 0.
Broadcasts, steps and emails take \`track_opens\` and \`track_clicks\` (default true) and \`utm: { source, medium,
campaign }\`, added to every web link of both parts (tracked or not) unless the link already has that parameter.
A domain's \`tracking_subdomain\` (a CNAME to the app's host, checked with its records) makes its mail's pixel and
redirects use \`https://<subdomain>.<domain>/\` once it and the domain are verified; that host serves only its
organization's links (404 for others).

## Events
Every fact about a contact or an email is recorded once as an event: \`contact.created\`,
\`contact.updated\`, \`contact.subscribed\`, \`contact.unsubscribed\`, \`email.sent\`, \`email.delivered\`, \`email.opened\`,
\`email.clicked\`, \`email.bounced\`, \`email.complained\`, \`email.replied\`. Your application adds its own
with \`POST /v1/events\` and \`POST /v1/events/batch\` (names of letters, digits, \`_ . : -\`; the prefixes
\`email.\`, \`contact.\` and \`automation.\` are the platform's). \`GET /v1/contacts/{id}/events\` lists a
contact's, newest first; their \`source\` is \`api\` for yours. Webhooks announce the built-in ones.

## Webhooks
Events: ${webhookEventTypes.map((type) => `\`${type}\``).join(", ")}, and \`webhook.test\` when a webhook is tested; the document's \`webhooks\`
section gives each one's payload. Each is POSTed to every enabled webhook subscribed to it as
\`{ "type", "created_at", "data" }\`, signed on the Standard Webhooks scheme: \`webhook-id\` (the delivery id,
the same on every retry), \`webhook-timestamp\` (Unix seconds) and \`webhook-signature\`
(\`v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">\` keyed with the base64 part of the \`whsec_\`
secret); any Standard Webhooks library verifies it. Answer 2xx within 10 seconds; anything else,
a redirect included (they are not followed), is a failure, retried after 30 s, 2 min, 10 min, 1 h, 6 h,
12 h and 24 h (8 attempts, then the delivery is \`failed\`). A webhook whose attempts failed 8 times in a
row over more than 24 hours is disabled, with the reason in \`disabled_reason\`; enabling it again
resumes its pending deliveries. Webhooks only reach public addresses: a URL whose host is or resolves
to a loopback, private, shared, link-local (cloud metadata included), multicast or reserved address
is refused when connecting. \`GET /v1/webhooks/{id}/deliveries\` lists each delivery; one delivery's log
(\`GET …/deliveries/{deliveryId}\`) shows the body sent and, per attempt, the headers, status, first 2 KB of
the answer, error and duration. \`POST /v1/webhooks/{id}/test\` sends a \`webhook.test\` event and
\`POST …/deliveries/{deliveryId}/replay\` a delivery again (same \`webhook-id\`), each answered once tried.
`.trim();
