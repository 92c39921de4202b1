/**
 * Node's flags for the production web server (`npm start`, `npm run web`, the benchmarks' server).
 * A young generation of 2 MB semi-spaces instead of V8's default 16: a request's garbage (a 10 MB
 * email's 13 MB of JSON, streamed and parsed) is collected by scavenges while it is young instead of
 * growing the young generation, which V8 does not give back. Measured with `npm run bench -- --only
 * attachment-memory` (27 Nov 2026, load under 3): the server's RSS while it takes a 10 MB email rose
 * 42 MB above its idle RSS with the default and 13 and 16 MB with these flags (idle itself 310–365
 * MB instead of 424), while `GET /v1/broadcasts/{id}` held 0.69 of the framework's empty answer
 * against 0.70 (2 MB; 1 MB cost a fifth of the rate). package.json's `web` script repeats them
 * (scripts/deployment.test.ts checks it does).
 */
export const WEB_SERVER_NODE_FLAGS = ["--max-semi-space-size=2"];
