import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { client, createTestOrg, expectError, randomId, type TestOrg } from "@/lib/testing/api";

type Listed = { contacts: { id: string; email: string }[]; total: number; limit: number; offset: number };

describe("GET /v1/contacts", () => {
  let org: TestOrg;
  let other: TestOrg;
  let segmentId: string;
  // Newest first, as the list answers.
  const emails = ["f@example.test", "e@example.test", "d@example.test", "c@example.test", "b@example.test", "a@example.test"];

  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
    const base = Date.parse("2026-01-01T00:00:00.000Z");
    const specs = [
      { email: "a@example.test", first_name: "Ann", last_name: "Smith", tags: ["vip", "news"], subscribed: true },
      { email: "b@example.test", first_name: "Bob", last_name: "Jones", tags: ["news"], subscribed: false },
      { email: "c@example.test", first_name: "Cy", last_name: "SMITHERS", tags: ["vip"], subscribed: true },
      { email: "d@example.test", first_name: "100%", last_name: null, tags: [], subscribed: true },
      { email: "e@example.test", first_name: null, last_name: null, tags: ["vip", "news", "beta"], subscribed: false },
      { email: "f@example.test", first_name: "Fay", last_name: "Under_score", tags: [], subscribed: true },
    ];
    for (const [i, spec] of specs.entries()) {
      await db.contact.create({ data: { ...spec, organization_id: org.organizationId, created_at: new Date(base + i * 1000) } });
    }
    const segment = await db.segment.create({ data: { organization_id: org.organizationId, name: "Chosen" } });
    segmentId = segment.id;
    for (const email of ["a@example.test", "e@example.test"]) {
      const contact = await db.contact.findFirstOrThrow({ where: { organization_id: org.organizationId, email } });
      await db.segmentContact.create({ data: { segment_id: segment.id, contact_id: contact.id, organization_id: org.organizationId } });
    }
    await db.contact.create({ data: { organization_id: other.organizationId, email: "a@example.test", tags: ["vip"] } });
  });

  const list = async (query = "") => {
    const result = await org.owner.api.get(`/v1/contacts${query ? `?${query}` : ""}`);
    expect(result.status, `${query}: ${JSON.stringify(result.body)}`).toBe(200);
    return result.body as Listed;
  };
  const listed = async (query: string) => (await list(query)).contacts.map((c) => c.email);

  it("without limit answers every contact of the organization, newest first, limit being the count", async () => {
    const result = await org.owner.api.get("/v1/contacts");
    expect(result.headers.get("content-type")).toMatch(/^application\/json/);
    expect(result.body.contacts.map((c: { email: string }) => c.email)).toEqual(emails);
    expect(result.body).toMatchObject({ total: 6, limit: 6, offset: 0 });
    expect(result.body.contacts[0]).toMatchObject({ organization_id: org.organizationId, first_name: "Fay", metadata: {}, tags: [] });
    expect(await list("offset=4")).toMatchObject({ total: 6, limit: 2, offset: 4 });
    expect(await listed("offset=4")).toEqual(emails.slice(4));
    expect(await list("offset=60")).toEqual({ contacts: [], total: 6, limit: 0, offset: 60 });
  });

  it("answers the same records streamed as paged", async () => {
    await db.contact.updateMany({
      where: { organization_id: org.organizationId, email: "b@example.test" },
      data: { metadata: { plan: "pro", seats: 3, trial: true, note: 'quote " backslash \\ tab \t é' }, unsubscribed_at: new Date("2026-02-03T04:05:06.789Z") },
    });
    const streamed = await list();
    const paged = await list("limit=100");
    expect(streamed.contacts).toEqual(paged.contacts);
    const b = paged.contacts.find((c) => c.email === "b@example.test");
    expect(b).toMatchObject({ unsubscribed_at: "2026-02-03T04:05:06.789Z", metadata: { note: 'quote " backslash \\ tab \t é', seats: 3 } });
    const single = await org.owner.api.get(`/v1/contacts/${b!.id}`);
    expect(single.body).toEqual(b);
  });

  it("pages with limit and offset", async () => {
    expect(await list("limit=2")).toMatchObject({ total: 6, limit: 2, offset: 0 });
    expect(await listed("limit=2")).toEqual(emails.slice(0, 2));
    expect(await listed("limit=2&offset=2")).toEqual(emails.slice(2, 4));
    expect(await list("limit=4&offset=4")).toMatchObject({ total: 6, limit: 4, offset: 4, contacts: [{ email: emails[4] }, { email: emails[5] }] });
    expect(await listed("limit=100&offset=6")).toEqual([]);
  });

  it("filters by subscription, search, tags (all of them) and segment, combined with AND", async () => {
    expect(await listed("subscribed=true")).toEqual(["f@example.test", "d@example.test", "c@example.test", "a@example.test"]);
    expect(await listed("subscribed=false")).toEqual(["e@example.test", "b@example.test"]);
    expect(await listed("search=smith")).toEqual(["c@example.test", "a@example.test"]);
    expect(await listed("search=BOB")).toEqual(["b@example.test"]);
    expect(await listed("search=E%40EXAMPLE")).toEqual(["e@example.test"]);
    // LIKE wildcards in the search text are matched literally.
    expect(await listed("search=%25")).toEqual(["d@example.test"]);
    expect(await listed("search=_")).toEqual(["f@example.test"]);
    expect(await listed("tags=vip")).toEqual(["e@example.test", "c@example.test", "a@example.test"]);
    expect(await listed("tags=vip,news")).toEqual(["e@example.test", "a@example.test"]);
    expect(await listed("tags=%20VIP%20,news,beta")).toEqual(["e@example.test"]);
    expect(await listed("tags=vip,nothing")).toEqual([]);
    expect(await listed(`segment_id=${segmentId}`)).toEqual(["e@example.test", "a@example.test"]);
    expect(await listed(`segment_id=${segmentId}&subscribed=true`)).toEqual(["a@example.test"]);
    const page = await list("tags=vip&limit=1&offset=1");
    expect(page).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(page.contacts.map((c) => c.email)).toEqual(["c@example.test"]);
    expect(await list("tags=news&subscribed=true")).toMatchObject({ total: 1, limit: 1 });
  });

  it("validates the filters with 400 and the paging parameters with the 422 pagination body", async () => {
    const bad = async (query: string) => expectError(await org.owner.api.get(`/v1/contacts?${query}`), 400, "VALIDATION_ERROR").details![0].path;
    expect(await bad("subscribed=yes")).toBe("subscribed");
    expect(await bad("segment_id=nope")).toBe("segment_id");
    expect(await bad(`segment_id=${randomId()}`)).toBe("segment_id");
    const theirSegment = await db.segment.create({ data: { organization_id: other.organizationId, name: "Theirs" } });
    expect(await bad(`segment_id=${theirSegment.id}`)).toBe("segment_id");
    expect(await bad("search=a%00b")).toBe("search");
    for (const query of ["limit=0", "limit=101", "limit=abc", "limit=1.5", "offset=-1", "offset=x", "limit=10&offset=1.5"]) {
      const result = await org.owner.api.get(`/v1/contacts?${query}`);
      expect(result.status, query).toBe(422);
      expect(result.body).toMatchObject({ name: "validation_error", statusCode: 422 });
      expect(typeof result.body.message).toBe("string");
    }
  });

  it("never shows another organization's contacts", async () => {
    const theirs = await other.owner.api.get("/v1/contacts");
    expect(theirs.body).toMatchObject({ total: 1, contacts: [{ email: "a@example.test", organization_id: other.organizationId }] });
    expect((await list("tags=vip")).contacts.every((c) => (c as { organization_id?: string }).organization_id === org.organizationId)).toBe(true);
  });

  it("answers 401 without a credential", async () => {
    expectError(await client(null).get("/v1/contacts?limit=5"), 401, "UNAUTHORIZED");
  });
});
