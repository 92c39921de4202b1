import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { limits } from "@/lib/schemas/common";
import { createTestOrg, expectError, type TestOrg } from "@/lib/testing/api";

// Inputs that answered 500 (a year PostgreSQL cannot store, a path parameter that is not UTF-8 once
// decoded) or were taken without a bound (20 000 metadata keys, 4 MB of metadata on one contact).

let org: TestOrg;
beforeAll(async () => {
  org = await createTestOrg("Input limits");
});

const keys = (count: number, value = "v") => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, value]));
const importCsv = (csv: string, columns: string[]) =>
  org.owner.api.post("/v1/contacts/import", {
    file_content: Buffer.from(csv).toString("base64"),
    column_mappings: columns.map((column) => ({ csv_column: column, property_name: column })),
    handle_missing: "create",
  });

describe("dates", () => {
  const broadcast = { name: "Dated", subject: "Hello", from_email: "news@example.test", html_content: "<p>Hi</p>" };

  it("answers 400, not 500, for a date outside the years 1970 to 9999, wherever a date is taken", async () => {
    for (const scheduled_at of ["0000-01-01T00:00:00Z", "0001-01-01T00:00:00.000Z", "1969-12-31T23:59:59Z"]) {
      expectError(await org.owner.api.post("/v1/broadcasts", { ...broadcast, scheduled_at }), 400, "VALIDATION_ERROR");
    }
    const created = await org.owner.api.post("/v1/broadcasts", broadcast);
    expect(created.status).toBe(201);
    expectError(await org.owner.api.put(`/v1/broadcasts/${created.body.id}`, { scheduled_at: "0000-06-01T00:00:00Z" }), 400, "VALIDATION_ERROR");
    expectError(await org.owner.api.post(`/v1/broadcasts/${created.body.id}/send`, { scheduled_at: "0000-06-01T00:00:00Z" }), 400, "VALIDATION_ERROR");
    expect((await org.owner.api.put(`/v1/broadcasts/${created.body.id}`, { scheduled_at: "9999-12-31T23:59:59Z" })).status).toBe(200);
    expect((await db.broadcast.findUniqueOrThrow({ where: { id: created.body.id } })).status).toBe("draft");
  });
});

describe("path parameters", () => {
  it("answers 400 for line breaks and other control characters in a path id", async () => {
    for (const id of ["%0D%0A", "%0A", "abc%0D%0ASet-Cookie:%20x=1", "%00"]) {
      expectError(await org.owner.api.get(`/v1/broadcasts/${id}`), 400, "VALIDATION_ERROR");
      expectError(await org.owner.api.delete(`/v1/contacts/${id}`), 400, "VALIDATION_ERROR");
    }
  });
});

describe("contact metadata", () => {
  it(`refuses more than ${limits.metadataKeys} keys or ${limits.metadataBytes} bytes of JSON on create, update and bulk`, async () => {
    const tooMany = keys(limits.metadataKeys + 1);
    const huge = keys(20_000);
    const tooLarge = keys(2, "x".repeat(9_000));
    for (const metadata of [tooMany, huge, tooLarge]) {
      expectError(await org.owner.api.post("/v1/contacts", { email: "meta@example.test", metadata }), 400, "VALIDATION_ERROR");
      expectError(
        await org.owner.api.post("/v1/contacts/bulk", { contacts: [{ email: "bulk-ok@example.test" }, { email: "bulk@example.test", metadata }] }),
        400,
        "VALIDATION_ERROR",
      );
    }
    const created = await org.owner.api.post("/v1/contacts", { email: "meta@example.test", metadata: keys(limits.metadataKeys) });
    expect(created.status).toBe(201);
    expectError(await org.owner.api.put(`/v1/contacts/${created.body.id}`, { metadata: tooMany }), 400, "VALIDATION_ERROR");
    expectError(await org.owner.api.put(`/v1/contacts/${created.body.id}`, { metadata: tooLarge }), 400, "VALIDATION_ERROR");
    expect(await db.contact.count({ where: { organization_id: org.organizationId, email: { in: ["bulk@example.test", "bulk-ok@example.test"] } } })).toBe(0);
    expect(Object.keys((await db.contact.findUniqueOrThrow({ where: { id: created.body.id } })).metadata as object)).toHaveLength(limits.metadataKeys);
  });

  it("caps metadata in CSV imports: columns mapped, each row's size, and what a merge into an existing contact would make", async () => {
    const columns = Array.from({ length: limits.metadataKeys + 1 }, (_, i) => `m${i}`);
    const header = ["email", ...columns].join(",");
    expectError(await importCsv(`${header}\nmany@example.test${",v".repeat(columns.length)}\n`, ["email", ...columns]), 400, "VALIDATION_ERROR");

    const big = "y".repeat(9_000);
    const sized = await importCsv(`email,a,b\nbig@example.test,${big},${big}\nsmall@example.test,1,2\n`, ["email", "a", "b"]);
    expect(sized.body).toMatchObject({ created: 1, errors_total: 1, errors: [{ row: 2, email: "big@example.test" }] });

    await db.contact.create({ data: { organization_id: org.organizationId, email: "nearly-full@example.test", metadata: keys(limits.metadataKeys - 2) } });
    await db.contact.create({ data: { organization_id: org.organizationId, email: "overlapping@example.test", metadata: keys(limits.metadataKeys - 2) } });
    const merged = await importCsv(`email,k0,new1,new2,new3\nnearly-full@example.test,a,b,c,d\noverlapping@example.test,a,b,c,\n`, [
      "email",
      "k0",
      "new1",
      "new2",
      "new3",
    ]);
    expect(merged.body).toMatchObject({
      updated: 1,
      errors_total: 1,
      errors: [{ row: 2, email: "nearly-full@example.test", error: expect.stringMatching(/metadata/) }],
    });
    const full = await db.contact.findFirstOrThrow({ where: { organization_id: org.organizationId, email: "nearly-full@example.test" } });
    const overlapping = await db.contact.findFirstOrThrow({ where: { organization_id: org.organizationId, email: "overlapping@example.test" } });
    expect(Object.keys(full.metadata as object)).toHaveLength(limits.metadataKeys - 2);
    expect(Object.keys(overlapping.metadata as object)).toHaveLength(limits.metadataKeys);
  });
});
