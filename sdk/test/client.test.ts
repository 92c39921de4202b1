import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMailplatform, MailplatformError, type Template } from "@mailplatform/sdk";
import { db } from "@/lib/db";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";
import { startApiServer } from "@/lib/testing/api-server";
import { verifiedDomain } from "@/lib/testing/sending-fixtures";

// The SDK as an application uses it: over HTTP, against the /v1 operations and a real database.
let server: Awaited<ReturnType<typeof startApiServer>>;
let org: TestOrg;
const seen: Request[] = [];
const recording = (request: Request) => (seen.push(request.clone()), fetch(request));

beforeAll(async () => {
  server = await startApiServer();
  org = await createTestOrg("SDK");
});
afterAll(() => server.close());

const sdk = (options: Partial<Parameters<typeof createMailplatform>[0]> = {}) =>
  createMailplatform({ apiKey: org.owner.token, baseUrl: `${server.url}/`, fetch: recording, ...options });

describe("the SDK against the server", () => {
  it("creates, reads, updates and deletes with typed methods, and throws the API's errors", async () => {
    const client = sdk();
    const created = await client.templates.create({ name: "Welcome", subject: "Hello {{first_name|there}}", html_content: "<p>Hi</p>" });
    expect(created).toMatchObject({ name: "Welcome", subject: "Hello {{first_name|there}}", organization_id: org.organizationId });
    const updated = await client.templates.update(created.id, { name: "Welcome back" });
    expect(updated.name).toBe("Welcome back");
    expect((await client.templates.get(created.id)).name).toBe("Welcome back");
    expect(await client.templates.delete(created.id)).toEqual({ success: true });

    const missing = await client.templates.get(created.id).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(MailplatformError);
    expect(missing).toMatchObject({ status: 404, code: "NOT_FOUND" });
    expect((missing as MailplatformError).requestId).toMatch(/./);
    const invalid = await client.contacts.create({ email: "not an address" }).catch((error: unknown) => error);
    expect(invalid).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });

    // The openapi-fetch methods answer { data, error } instead of throwing.
    const raw = await client.GET("/v1/templates/{id}", { params: { path: { id: created.id } } });
    expect(raw.response.status).toBe(404);
    expect(raw.error).toMatchObject({ code: "NOT_FOUND" });
  });

  it("iterates a cursor list page by page, newest first, and the contacts page by offset", async () => {
    const own = await createTestOrg("SDK pages");
    const client = sdk({ apiKey: own.owner.token });
    const ids: string[] = [];
    for (let i = 0; i < 23; i++) ids.push((await client.templates.create({ name: `T${i}`, subject: "S", text_content: "x" })).id);
    seen.length = 0;
    const listed: Template[] = [];
    for await (const template of client.templates.list({ query: { limit: 10 } })) listed.push(template);
    expect(listed.map((t) => t.id)).toEqual([...ids].reverse());
    expect(seen.map((r) => new URL(r.url).searchParams.get("after"))).toEqual([null, ids[13], ids[3]]);

    // The generic form takes any cursor list, with its filters.
    const topics = [];
    for await (const topic of client.paginate("/v1/topics")) topics.push(topic);
    expect(topics).toEqual([]);

    for (let i = 0; i < 7; i++) await client.contacts.create({ email: `p${i}@example.test`, tags: i % 2 ? ["odd"] : [] });
    seen.length = 0;
    const odd = [];
    for await (const contact of client.contacts.list({ tags: "odd", limit: 2 })) odd.push(contact.email);
    expect(odd).toEqual(["p5@example.test", "p3@example.test", "p1@example.test"]);
    expect(seen).toHaveLength(2);
  });

  it("sends with one Idempotency-Key across retries: an answer lost on the way is not a second email", async () => {
    await verifiedDomain(org.organizationId, "sdk.test");
    let lost = 0;
    // The server records the email, then the connection drops before the answer arrives.
    const dropFirstAnswer = async (request: Request) => {
      seen.push(request.clone());
      const response = await fetch(request);
      if (lost++ === 0) throw new TypeError("fetch failed: other side closed");
      return response;
    };
    const client = sdk({ fetch: dropFirstAnswer, retry: { sleep: async () => undefined } });
    seen.length = 0;
    const email = await client.emails.send({ from: "app@sdk.test", to: "pat@example.test", subject: "Receipt 41", text: "Thanks" });
    expect(email).toMatchObject({ status: "queued", to_email: "pat@example.test", subject: "Receipt 41" });
    expect(seen).toHaveLength(2);
    const keys = seen.map((r) => r.headers.get("idempotency-key"));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(await db.email.count({ where: { organization_id: org.organizationId, subject: "Receipt 41" } })).toBe(1);

    // A caller's own key is kept; a create without one is not retried after a failure (it may have happened).
    seen.length = 0;
    await client.emails.send({ from: "app@sdk.test", to: "pat@example.test", subject: "Receipt 42", text: "Thanks" }, { idempotencyKey: "order-42" });
    expect(seen.map((r) => r.headers.get("idempotency-key"))).toEqual(["order-42"]);
    lost = 0;
    seen.length = 0;
    await expect(client.contacts.create({ email: "once@example.test" })).rejects.toThrow(/other side closed/);
    expect(seen).toHaveLength(1);
    expect(seen[0].headers.has("idempotency-key")).toBe(false);
    expect(await db.contact.count({ where: { organization_id: org.organizationId, email: "once@example.test" } })).toBe(1);
  });
});
