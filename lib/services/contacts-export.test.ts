import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import Papa from "papaparse";
import { beforeAll, describe, expect, it } from "vitest";
import { exportContactsOperation } from "@/lib/api/operations/contact-data";
import { execute } from "@/lib/api/route";
import { db } from "@/lib/db";
import { createTestOrg, type TestOrg } from "@/lib/testing/api";

/** GET /v1/contacts/export through the operation, as the route serves it. */
async function exportCsv(org: TestOrg, query = "") {
  return execute(
    exportContactsOperation,
    new Request(`http://localhost/v1/contacts/export${query}`, { headers: { authorization: `Bearer ${org.owner.token}` } }),
  );
}
/** V8's collector, exposed for this test (vitest's workers run without --expose-gc). */
function collector(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

const rows = async (response: Response) => Papa.parse<Record<string, string>>(await response.text(), { header: true, skipEmptyLines: true }).data;

describe("GET /v1/contacts/export", () => {
  let org: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg();
    await org.owner.api.post("/v1/contact-properties", { key: "plan", type: "string" });
    await org.owner.api.post("/v1/contact-properties", { key: "seats", type: "number" });
    await org.owner.api.post("/v1/contacts/bulk", {
      contacts: [
        { email: "plain@example.test", first_name: "Ann", tags: ["vip"], metadata: { plan: "pro", seats: -3, note: "x" } },
        { email: "hostile@example.test", first_name: "=cmd|' /C calc'!A0", last_name: "+1", metadata: { plan: "@SUM(A1)" } },
        { email: "-minus@example.test", first_name: 'O\'Brien \\ "quoted"', subscribed: false, metadata: { plan: "\tTab" } },
        { email: "elise@example.test", first_name: "Élise", last_name: "\rCR", tags: ["=1+1", "ok"] },
      ],
    });
  });

  it("streams CSV with a header, neutralising cells a spreadsheet would run as formulas", async () => {
    const response = await exportCsv(org);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="contacts-\d{4}-\d\d-\d\d\.csv"$/);
    const data = await rows(response);
    expect(Object.keys(data[0])).toEqual([
      "id",
      "email",
      "first_name",
      "last_name",
      "subscribed",
      "unsubscribed_at",
      "tags",
      "plan",
      "seats",
      "metadata",
      "created_at",
      "updated_at",
    ]);
    const byEmail = new Map(data.map((row) => [row.email.replace(/^'/, ""), row]));
    expect(byEmail.get("hostile@example.test")).toMatchObject({ first_name: "'=cmd|' /C calc'!A0", last_name: "'+1", plan: "'@SUM(A1)" });
    expect(byEmail.get("-minus@example.test")).toMatchObject({
      email: "'-minus@example.test",
      first_name: 'O\'Brien \\ "quoted"',
      plan: "'\tTab",
      subscribed: "f",
    });
    // Only the first character counts: a name starting with a letter beyond ASCII stays as it is.
    expect(byEmail.get("elise@example.test")).toMatchObject({ first_name: "Élise", last_name: "'\rCR", tags: "'=1+1,ok" });
    // Times in ISO 8601, UTC, the instants the API answers.
    const listed = (await org.owner.api.get("/v1/contacts")).body.contacts as { email: string; created_at: string; unsubscribed_at: string | null }[];
    for (const contact of listed) {
      const row = byEmail.get(contact.email)!;
      expect(row.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,3})?Z$/);
      expect(new Date(row.created_at).toISOString()).toBe(contact.created_at);
      expect(row.unsubscribed_at ? new Date(row.unsubscribed_at).toISOString() : null).toBe(contact.unsubscribed_at);
    }
    // Numbers stay numbers: -3 is not a formula.
    expect(byEmail.get("plain@example.test")).toMatchObject({ tags: "vip", plan: "pro", seats: "-3" });
    expect(JSON.parse(byEmail.get("plain@example.test")!.metadata)).toEqual({ plan: "pro", seats: -3, note: "x" });
    for (const row of data) for (const cell of Object.values(row)) expect(cell).not.toMatch(/^[=+@\t\r]/);
  });

  it("exports exactly the contacts the list answers for the same query, values written into the statement safely", async () => {
    const segment = (await org.owner.api.post("/v1/segments", { name: "Some" })).body.id;
    const ids = (await org.owner.api.get("/v1/contacts")).body.contacts.map((c: { id: string }) => c.id);
    await org.owner.api.post(`/v1/segments/${segment}/contacts`, { contact_ids: ids.slice(0, 2) });
    const filter = encodeURIComponent(
      JSON.stringify({
        any: [
          { field: "first_name", op: "eq", value: 'O\'Brien \\ "quoted"' },
          { field: "tags", op: "contains", value: "vip" },
        ],
      }),
    );
    for (const query of [
      "",
      "?subscribed=false",
      "?search=O%27Brien%20%5C",
      "?tags=vip",
      `?segment_id=${segment}`,
      `?filter=${filter}`,
      "?search=%25_nothing",
    ]) {
      const listed = (await org.owner.api.get(`/v1/contacts${query}`)).body.contacts.map((c: { id: string }) => c.id);
      const exported = (await rows(await exportCsv(org, query))).map((row) => row.id);
      expect(exported, query).toEqual(listed);
    }
    expect((await exportCsv(org, "?segment_id=not-a-uuid")).status).toBe(400);
  });

  it("streams 100 000 contacts without holding them: memory grows far less than the file", async () => {
    const big = await createTestOrg();
    // About 700 bytes of metadata each: a CSV of some 80 MB.
    await db.$executeRaw`
      INSERT INTO contacts (organization_id, email, first_name, metadata)
      SELECT ${big.organizationId}::uuid, 'bulk' || g || '@example.test', 'Person ' || g, jsonb_build_object('bio', repeat('x', 700))
      FROM generate_series(1, 100000) g`;
    // What the process holds, garbage collected first: without a collection the heap counts every
    // chunk already read until V8 gets round to it, which on a loaded machine was more than the file.
    const gc = collector();
    const held = () => {
      gc();
      const m = process.memoryUsage();
      return m.heapUsed + m.arrayBuffers;
    };
    const before = held();
    const response = await exportCsv(big);
    const reader = response.body!.getReader();
    let bytes = 0;
    let lines = 0;
    let peak = 0;
    let measuredAt = 0;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      bytes += chunk.value.byteLength;
      for (const byte of chunk.value) if (byte === 10) lines++;
      if (bytes - measuredAt >= 8 * 1024 * 1024) {
        measuredAt = bytes;
        peak = Math.max(peak, held() - before);
      }
    }
    expect(lines).toBe(100_001);
    expect(bytes).toBeGreaterThan(70 * 1024 * 1024);
    // Buffering the file would hold its whole size; streamed, a few chunks at a time.
    expect(peak).toBeLessThan(bytes / 2);
  }, 120_000);

  it("keeps to the caller's organization", async () => {
    const other = await createTestOrg();
    await other.owner.api.post("/v1/contacts", { email: "theirs@example.test" });
    const data = await rows(await exportCsv(org));
    expect(data.map((row) => row.email)).not.toContain("theirs@example.test");
    const segment = (await other.owner.api.post("/v1/segments", { name: "Theirs" })).body.id;
    expect((await exportCsv(org, `?segment_id=${segment}`)).status).toBe(400);
  });
});
