/**
 * The introduction of the API reference: the conventions every operation shares. What the document
 * says elsewhere — each operation's error codes, the rate-limit and webhook headers, the webhook
 * events and their payloads — is not repeated here.
 */
export const apiDescription = `
The /v1 API of Mailplatform: contacts, segments, templates, broadcasts with follow-up sequences,
sender inboxes and domains, emails and threads, webhooks and team invitations.

## Authentication
Send \`Authorization: Bearer <API key>\`. API keys are JWTs created in the dashboard (Settings → API
keys), with \`POST /v1/api-keys\`, or with \`npm run cli -- api-key:create\`. A key belongs to one
organization and acts as the member who created it, with that member's role. A missing, malformed,
expired or revoked credential is **401 UNAUTHORIZED** (a revoked key from its next request).
The dashboard's session cookie is accepted too, but a write with it must come from the dashboard
itself (an \`Origin\` of the application, or \`Sec-Fetch-Site: same-origin\`): otherwise **403 FORBIDDEN**.

## Conventions
- JSON with snake_case fields; timestamps are ISO 8601 in UTC with milliseconds; ids are UUIDs.
- Unknown body fields are ignored; server-owned fields (id, organization_id, status, counters,
  created_by, created_at, updated_at) are never taken from a request. Answers may gain fields.
- A POST that creates a record answers **201** with it; actions and deletes answer **200**.
- An id of another organization is answered exactly like one that does not exist: **404 NOT_FOUND**.
- A request body must be JSON with \`Content-Type: application/json\`, else **415 UNSUPPORTED_MEDIA_TYPE**
  (a POST without a body needs none; \`POST /v1/media\` also takes multipart/form-data).
- Each schema gives its limits; besides, tags must be lowercase, dates fall in the years 1970 to 9999,
  text with a NUL character is refused, and bodies are at most 5 MB (CSV imports: 50 MB of decoded CSV,
  rows of at most a million characters).
- An unknown path under /v1 answers **404 NOT_FOUND** with the error body.

## Rate limits
Token buckets per API key (or signed-in user) and per organization (all its keys and users): by default
bursts of 100 refilled at 50 a second per key, 200 at 100 a second per organization. Failed
authentications are limited per client address (by default 30 a minute); an address over it is refused
before its credentials are read. Every answer carries \`RateLimit-Policy\` and \`RateLimit\`
(draft-ietf-httpapi-ratelimit-headers); over a limit: **429 RATE_LIMITED** with \`Retry-After\` in seconds.

## Errors
\`{ "error", "code", "details"? }\`; each operation lists its codes by status. \`VALIDATION_ERROR\` (400)
lists each problem in \`details\` as \`{ path, message }\`. 500 INTERNAL_ERROR never carries internals;
503 SERVICE_UNAVAILABLE means the database is briefly unreachable: repeat after \`Retry-After\`.

## Pagination
Cursor lists answer \`{ "object": "list", "has_more", "data" }\`, newest first. \`limit\` is 1 to 100
(default 20), \`after=<id>\` gives the page of older items after that item, \`before=<id>\` the page of newer
items before it; the two cannot be combined. Invalid paging parameters answer **422**
\`{ "name": "validation_error", "statusCode": 422, "message" }\`. Templates, topics and emails (cursor mode)
are always paginated; broadcasts, segments, domains, webhooks, inboxes and API keys return everything
when \`limit\` is omitted. \`GET /v1/contacts\` answers \`{ contacts, total, limit, offset }\` and, without
\`limit\`, streams every matching contact. \`GET /v1/emails\` pages by \`page\` and \`limit\` unless
\`after\` or \`before\` is given.

## Sequences
Step *n* of a broadcast goes to a recipient \`delay_minutes\` after their email of step *n − 1* was sent
(checked every 15 seconds). The recipient leaves the sequence when they replied to, unsubscribed from,
bounced or complained about any email of the broadcast, when their address is suppressed, or by the
broadcast's \`sequence_exit_conditions\`; their email of that step is then \`cancelled\`, and a reply also
cancels a follow-up already queued. \`sales\` steps reply in the first email's thread (\`Re: <first subject>\`,
\`In-Reply-To\` and \`References\`, same inbox and sender); \`marketing\` steps are new emails with the step's
subject (or its template's, or the broadcast's). A broadcast stays \`sending\` until every step was
dispatched; follow-ups count in \`total_recipients\`.

## Replies
Inboxes with IMAP settings are read every minute (INBOX, read-only). A message whose \`In-Reply-To\` or
\`References\` names a Message-ID of the organization's emails is stored as a \`received\` email in that
thread, sets its \`replied_at\`, counts once per recipient in the broadcast's \`replied_count\` and emits
\`email.replied\`. Automatic answers (\`Auto-Submitted\`, delivery reports) are left alone.

## Open and click tracking
While the organization's \`tracking_enabled\` is on, each sent HTML email carries a 1×1 pixel and its
http(s) links lead through signed redirects, which only ever lead to a link of that email. A person's
first open sets \`opened_at\`, their first click \`clicked_at\`; each is added to \`opens\` and \`clicked_links\`
(at most 100 entries each). Opens and clicks by programs — Apple Mail Privacy Protection, requests without
a user agent, known bots and scanners, link scanners following two or more links within 10 seconds of
delivery — carry \`machine\` (the reason), set no timestamp or count, and reports keep them apart
(\`machine_opens\`, \`machine_clicks\`) and out of every rate; Gmail's and Yahoo's image proxies are people
(\`proxy\`). Broadcasts, steps and emails take \`track_opens\`, \`track_clicks\` (default true) and \`utm\`;
a domain's \`tracking_subdomain\` puts its mail's pixel and redirects on its own host.

## Events and webhooks
Every fact about a contact or an email is recorded once as an event; \`POST /v1/events\` and
\`/v1/events/batch\` add your own (names of letters, digits, \`_ . : -\`; the prefixes \`email.\`,
\`contact.\` and \`automation.\` are the platform's), and \`GET /v1/contacts/{id}/events\` lists a contact's.
Webhooks receive the events of the document's \`webhooks\` section as \`{ "type", "created_at", "data" }\`,
signed on the Standard Webhooks scheme (any of its libraries verifies them). Answer 2xx within 10 seconds;
anything else, a redirect included, is retried after 30 s, 2 min, 10 min, 1 h, 6 h, 12 h and 24 h
(8 attempts, then the delivery is \`failed\`). A webhook failing 8 times in a row over more than 24 hours
is disabled (\`disabled_reason\`); enabling it resumes its pending deliveries. Webhook URLs must reach
public addresses: loopback, private, link-local (cloud metadata included) and reserved ones are refused
when connecting. Each delivery's log keeps the body sent and, per attempt, the headers, status, first
2 KB of the answer, error and duration.
`.trim();
