import { readdirSync, readlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { pool } from "@/lib/db/pool";
import { client, createTestOrg, expectError, randomId, request, type TestOrg } from "@/lib/testing/api";

const base64 = (text: string | Buffer) => Buffer.from(text).toString("base64");
const NO_FLAGS = { invalid: 0, disposable: 0, role: 0, skipped: 0, rows: [] };

const standard = [
  { csv_column: "Email", property_name: "email" },
  { csv_column: "First Name", property_name: "first_name" },
  { csv_column: "Last Name", property_name: "last_name" },
];

describe("POST /v1/contacts/import", () => {
  let org: TestOrg;
  let other: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg();
    other = await createTestOrg();
  });

  const importCsv = (target: TestOrg, csv: string | Buffer, body: Record<string, unknown> = {}) =>
    target.owner.api.post("/v1/contacts/import", { file_content: base64(csv), column_mappings: standard, handle_missing: "create", ...body });
  const contact = (target: TestOrg, email: string) =>
    db.contact.findUnique({ where: { organization_id_email: { organization_id: target.organizationId, email } } });

  it("creates contacts from mapped columns; other names become metadata keys", async () => {
    const fresh = await createTestOrg();
    const result = await importCsv(
      fresh,
      "Email,First Name,Last Name,Company,Ignored\nAda@Example.test ,Ada,Lovelace,Analytical,x\nbob@example.test,Bob,,, y\n",
      {
        column_mappings: [...standard, { csv_column: "Company", property_name: "company" }],
      },
    );
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ created: 2, updated: 0, skipped: 0, errors: [], errors_total: 0, flagged: NO_FLAGS });
    const ada = await contact(fresh, "ada@example.test");
    expect(ada).toMatchObject({
      first_name: "Ada",
      last_name: "Lovelace",
      metadata: { company: "Analytical" },
      subscribed: true,
      unsubscribed_at: null,
      tags: [],
    });
    expect(ada!.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(ada!.created_at).toBeInstanceOf(Date);
    expect(await contact(fresh, "bob@example.test")).toMatchObject({ first_name: "Bob", last_name: null, metadata: {} });
    const listed = await fresh.owner.api.get("/v1/contacts?limit=10");
    expect(listed.body.total).toBe(2);
  });

  it("maps a time zone column (extension): stored under the canonical name, an empty cell keeps the contact's, a wrong one rejects the row", async () => {
    const fresh = await createTestOrg();
    await db.contact.create({ data: { organization_id: fresh.organizationId, email: "kept@example.test", timezone: "Asia/Tokyo" } });
    const result = await importCsv(fresh, "Email,TZ\nada@example.test,europe/berlin\nkept@example.test,\nbad@example.test,Mars/Olympus\n", {
      column_mappings: [
        { csv_column: "Email", property_name: "email" },
        { csv_column: "TZ", property_name: "timezone" },
      ],
    });
    expect(result.body).toMatchObject({ created: 1, updated: 1, skipped: 1, errors_total: 1 });
    expect(result.body.errors).toEqual([
      { row: 4, email: "bad@example.test", error: 'timezone must be an IANA time zone such as Europe/Berlin, not "Mars/Olympus"' },
    ]);
    expect((await contact(fresh, "ada@example.test"))!.timezone).toBe("Europe/Berlin");
    expect((await contact(fresh, "kept@example.test"))!.timezone).toBe("Asia/Tokyo");
    expect((await contact(fresh, "ada@example.test"))!.metadata).toEqual({});
  });

  it("updates existing contacts: mapped values replace, empty cells keep, metadata merges, tags add", async () => {
    await db.contact.create({
      data: {
        organization_id: org.organizationId,
        email: "known@example.test",
        first_name: "Old",
        last_name: "Keep",
        metadata: { a: 1, company: "Before" },
        tags: ["old"],
      },
    });
    const result = await importCsv(org, "Email,First Name,Last Name,Company,Tags\nKNOWN@example.test,New,,After,new; Other ,old\nfresh@example.test,F,L,,\n", {
      column_mappings: [...standard, { csv_column: "Company", property_name: "company" }, { csv_column: "Tags", property_name: "tags" }],
    });
    expect(result.body).toEqual({ created: 1, updated: 1, skipped: 0, errors: [], errors_total: 0, flagged: NO_FLAGS });
    const known = await contact(org, "known@example.test");
    expect(known).toMatchObject({ first_name: "New", last_name: "Keep", metadata: { a: 1, company: "After" }, tags: ["old", "new", "other"] });
    expect(known!.updated_at.getTime()).toBeGreaterThan(known!.created_at.getTime() - 1);
    expect(await contact(org, "fresh@example.test")).toMatchObject({ first_name: "F", last_name: "L", tags: [] });
  });

  it("with handle_missing skip updates existing contacts only and counts the others as skipped", async () => {
    await db.contact.create({ data: { organization_id: org.organizationId, email: "skipmode@example.test", first_name: "Before" } });
    const result = await importCsv(org, "Email,First Name,Last Name\nskipmode@example.test,After,\nnot-there@example.test,X,Y\nalso-not@example.test,,\n", {
      handle_missing: "skip",
    });
    expect(result.body).toEqual({ created: 0, updated: 1, skipped: 2, errors: [], errors_total: 0, flagged: NO_FLAGS });
    expect((await contact(org, "skipmode@example.test"))!.first_name).toBe("After");
    expect(await contact(org, "not-there@example.test")).toBeNull();
  });

  it("reads semicolon and tab delimited files, a BOM, CRLF, and quoted fields with delimiters, quotes and line breaks", async () => {
    const fresh = await createTestOrg();
    const semicolon =
      '\uFEFFEmail;First Name;Last Name;Note\r\n"semi@example.test";"Smith; Jr";"O""Brien";"line one\r\nline two"\r\nsemi2@example.test;A;B;plain\r\n';
    const r1 = await importCsv(fresh, semicolon, { column_mappings: [...standard, { csv_column: "Note", property_name: "note" }] });
    expect(r1.body).toEqual({ created: 2, updated: 0, skipped: 0, errors: [], errors_total: 0, flagged: NO_FLAGS });
    expect(await contact(fresh, "semi@example.test")).toMatchObject({
      first_name: "Smith; Jr",
      last_name: 'O"Brien',
      metadata: { note: "line one\r\nline two" },
    });
    const tab = "Email\tFirst Name\tLast Name\ntab@example.test\tTab, with comma\tT\n";
    const upperCaseProperties = standard.map((m) => ({ ...m, property_name: m.property_name.toUpperCase() }));
    expect((await importCsv(fresh, tab, { column_mappings: upperCaseProperties })).body).toEqual({
      created: 1,
      updated: 0,
      skipped: 0,
      errors: [],
      errors_total: 0,
      flagged: NO_FLAGS,
    });
    expect((await contact(fresh, "tab@example.test"))!.first_name).toBe("Tab, with comma");
    const headerOnly = await importCsv(fresh, "Email,First Name,Last Name\n");
    expect(headerOnly.body).toEqual({ created: 0, updated: 0, skipped: 0, errors: [], errors_total: 0, flagged: NO_FLAGS });
  });

  it("skips rows without a valid email, repeated emails and invalid values, reporting each by spreadsheet row", async () => {
    const fresh = await createTestOrg();
    const csv = [
      "Email,First Name,Last Name,Subscribed",
      "first@example.test,First,,yes", // row 2
      ",No email,,", // row 3
      "not-an-email,Bad,,", // row 4
      "", // row 5: a blank line is no data
      ' FIRST@example.test ,"Second, copy",,', // row 6
      'multi@example.test,"two',
      'lines",,NO', // rows 7 (one record over two lines)
      "maybe@example.test,Maybe,,maybe", // row 8
      `long@example.test,${"x".repeat(201)},,`, // row 9
      "nul@example.test,a\u0000b,,", // row 10
      "last@example.test,Last,,0", // row 11
    ].join("\n");
    const result = await importCsv(fresh, csv, { column_mappings: [...standard, { csv_column: "Subscribed", property_name: "subscribed" }] });
    expect(result.status).toBe(200);
    expect(result.body.created).toBe(3);
    expect(result.body.updated).toBe(0);
    expect(result.body.skipped).toBe(6);
    expect(result.body.errors.map((e: { row: number; email: string }) => [e.row, e.email])).toEqual([
      [3, ""],
      [4, "not-an-email"],
      [6, "FIRST@example.test"],
      [8, "maybe@example.test"],
      [9, "long@example.test"],
      [10, "nul@example.test"],
    ]);
    expect(result.body.errors.every((e: { error: unknown }) => typeof e.error === "string" && e.error.length > 0)).toBe(true);
    expect(result.body.errors[2].error).toMatch(/earlier row/);
    expect(await contact(fresh, "first@example.test")).toMatchObject({ first_name: "First", subscribed: true });
    expect(await contact(fresh, "multi@example.test")).toMatchObject({ first_name: "two\nlines", subscribed: false });
    expect((await contact(fresh, "multi@example.test"))!.unsubscribed_at).toBeInstanceOf(Date);
    expect(await contact(fresh, "last@example.test")).toMatchObject({ subscribed: false });
    expect(await contact(fresh, "maybe@example.test")).toBeNull();
  });

  it("reports the repeats after an email's first row, in row order among the invalid rows, whatever the file's size", async () => {
    const fresh = await createTestOrg();
    const lines = ["Email,First Name,Last Name"];
    const expected: [number, string][] = [];
    const firsts = new Map<string, string>();
    for (let i = 0; i < 3000; i++) {
      const row = i + 2;
      if (i % 7 === 6) {
        lines.push(`broken-${i},,`);
        expected.push([row, `broken-${i}`]);
      } else if (i % 3 === 2) {
        const again = `REPEAT-${i % 50}@Example.test`;
        if (firsts.has(again.toLowerCase())) expected.push([row, again]);
        else firsts.set(again.toLowerCase(), `first ${row}`);
        lines.push(`${again},first ${row},`);
      } else lines.push(`unique-${i}@example.test,,`);
    }
    // The file last in the body, as MIME-wrapped base64: neither may matter.
    const body = JSON.stringify({ column_mappings: standard, handle_missing: "create", file_content: base64(lines.join("\n")).replace(/.{76}/g, "$&\r\n") });
    const result = await request("POST", "/v1/contacts/import", { token: fresh.owner.token, rawBody: body });
    expect(result.status).toBe(200);
    // More than 1 000: the answer lists the first 1 000 and counts them all.
    expect(expected.length).toBeGreaterThan(1000);
    const listed = expected.slice(0, 1000);
    expect(result.body.errors.map((e: { row: number; email: string }) => [e.row, e.email])).toEqual(listed);
    expect(result.body.errors.filter((e: { error: string }) => /earlier row/.test(e.error))).toHaveLength(
      listed.filter(([, e]) => e.startsWith("REPEAT")).length,
    );
    const uniques = lines.length - 1 - expected.length;
    expect(result.body).toMatchObject({ created: uniques, updated: 0, skipped: expected.length, errors_total: expected.length });
    for (const [email, firstName] of firsts) expect(await contact(fresh, email)).toMatchObject({ first_name: firstName });
  });

  it("reads subscribed as true/false, yes/no or 1/0 in any case, and an empty cell as unchanged", async () => {
    const fresh = await createTestOrg();
    await db.contact.create({
      data: { organization_id: fresh.organizationId, email: "was-off@example.test", subscribed: false, unsubscribed_at: new Date("2026-01-01T00:00:00Z") },
    });
    await db.contact.create({
      data: { organization_id: fresh.organizationId, email: "stays-off@example.test", subscribed: false, unsubscribed_at: new Date("2026-01-01T00:00:00Z") },
    });
    const rows = ["TRUE", "False", "Yes", "no", "1", "0"].map((flag, i) => `s${i}@example.test,${flag}`);
    const csv = ["Email,Subscribed", ...rows, "was-off@example.test,TRUE", "stays-off@example.test,"].join("\n");
    const result = await importCsv(fresh, csv, {
      column_mappings: [
        { csv_column: "Email", property_name: "email" },
        { csv_column: "Subscribed", property_name: "subscribed" },
      ],
    });
    expect(result.body).toEqual({ created: 6, updated: 2, skipped: 0, errors: [], errors_total: 0, flagged: NO_FLAGS });
    const flags = await Promise.all([0, 1, 2, 3, 4, 5].map(async (i) => (await contact(fresh, `s${i}@example.test`))!.subscribed));
    expect(flags).toEqual([true, false, true, false, true, false]);
    expect(await contact(fresh, "was-off@example.test")).toMatchObject({ subscribed: true, unsubscribed_at: null });
    expect(await contact(fresh, "stays-off@example.test")).toMatchObject({ subscribed: false, unsubscribed_at: new Date("2026-01-01T00:00:00Z") });
  });

  it("splits tags on commas and semicolons, trimmed and lowercase", async () => {
    const fresh = await createTestOrg();
    const csv =
      'Email,Labels\ntags@example.test,"VIP; News , beta,,vip"\ntoo-many@example.test,"' + Array.from({ length: 21 }, (_, i) => `t${i}`).join(",") + '"\n';
    const result = await importCsv(fresh, csv, {
      column_mappings: [
        { csv_column: "Email", property_name: "email" },
        { csv_column: "Labels", property_name: "tags" },
      ],
    });
    expect(result.body).toMatchObject({ created: 1, skipped: 1, errors: [{ row: 3, email: "too-many@example.test" }] });
    expect((await contact(fresh, "tags@example.test"))!.tags).toEqual(["vip", "news", "beta"]);
  });

  it("skips a row whose tags would take an existing contact past 20, counting tags it already has once", async () => {
    const fresh = await createTestOrg();
    const tags = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `t${from + i}`);
    await db.contact.createMany({
      data: [
        { organization_id: fresh.organizationId, email: "full@example.test", first_name: "Full", tags: tags(0, 18) },
        { organization_id: fresh.organizationId, email: "fits@example.test", first_name: "Fits", tags: tags(0, 18) },
      ],
    });
    const csv = `Email,First Name,Labels\nfits@example.test,Fitted,"${tags(10, 20).join(",")}"\nfull@example.test,Changed,"${tags(17, 21).join(",")}"\n`;
    const result = await importCsv(fresh, csv, {
      column_mappings: [...standard.slice(0, 2), { csv_column: "Labels", property_name: "tags" }],
    });
    expect(result.body).toEqual({
      created: 0,
      updated: 1,
      skipped: 1,
      errors: [{ row: 3, email: "full@example.test", error: "would give the contact more than 20 tags" }],
      errors_total: 1,
      flagged: NO_FLAGS,
    });
    expect(await contact(fresh, "fits@example.test")).toMatchObject({ first_name: "Fitted", tags: tags(0, 20) });
    expect(await contact(fresh, "full@example.test")).toMatchObject({ first_name: "Full", tags: tags(0, 18) });
  });

  it("adds created and updated contacts to the segment, not skipped ones", async () => {
    const fresh = await createTestOrg();
    const segment = await db.segment.create({ data: { organization_id: fresh.organizationId, name: "Imported" } });
    await db.contact.create({ data: { organization_id: fresh.organizationId, email: "existing@example.test" } });
    const bystander = await db.contact.create({ data: { organization_id: fresh.organizationId, email: "bystander@example.test" } });
    const csv = "Email,First Name,Last Name\nexisting@example.test,E,\nnew@example.test,N,\nbad,,\n";
    const result = await importCsv(fresh, csv, { segment_id: segment.id });
    expect(result.body).toMatchObject({ created: 1, updated: 1, skipped: 1 });
    const members = await db.segmentContact.findMany({ where: { segment_id: segment.id }, include: { contact: true } });
    expect(members.map((m) => m.contact.email).sort()).toEqual(["existing@example.test", "new@example.test"]);
    expect(members.every((m) => m.organization_id === fresh.organizationId)).toBe(true);
    expect(members.some((m) => m.contact_id === bystander.id)).toBe(false);
    const again = await importCsv(fresh, csv, { segment_id: segment.id, handle_missing: "skip" });
    expect(again.body).toMatchObject({ created: 0, updated: 2, skipped: 1 });
    expect(await db.segmentContact.count({ where: { segment_id: segment.id } })).toBe(2);
  });

  it("refuses an unknown or another organization's segment with 400, writing nothing", async () => {
    const theirs = await db.segment.create({ data: { organization_id: other.organizationId, name: "Theirs" } });
    for (const segment_id of [randomId(), theirs.id]) {
      const error = expectError(await importCsv(org, "Email,First Name,Last Name\nseg-refused@example.test,,\n", { segment_id }), 400, "VALIDATION_ERROR");
      expect(error.details![0].path).toBe("segment_id");
    }
    expect(await contact(org, "seg-refused@example.test")).toBeNull();
    expect(await db.segmentContact.count({ where: { segment_id: theirs.id } })).toBe(0);
  });

  it("refuses mappings to columns the header lacks, no mapping to email, and a property mapped twice", async () => {
    const csv = "Email,First Name,Last Name\nmap@example.test,M,N\n";
    const path = async (column_mappings: unknown) => expectError(await importCsv(org, csv, { column_mappings }), 400, "VALIDATION_ERROR").details![0].path;
    expect(
      await path([
        { csv_column: "Email", property_name: "email" },
        { csv_column: "Phone", property_name: "phone" },
      ]),
    ).toBe("column_mappings.1.csv_column");
    expect(await path([{ csv_column: "First Name", property_name: "first_name" }])).toBe("column_mappings");
    expect(
      await path([
        { csv_column: "Email", property_name: "email" },
        { csv_column: "Last Name", property_name: "email" },
      ]),
    ).toBe("column_mappings.1.property_name");
    expect(
      await path([
        { csv_column: "Email", property_name: "email" },
        { csv_column: "Last Name", property_name: " EMAIL" },
      ]),
    ).toBe("column_mappings.1.property_name");
    expect(await path([])).toBe("column_mappings");
    expect(await path([{ csv_column: "", property_name: "email" }])).toBe("column_mappings.0.csv_column");
    expect(await contact(org, "map@example.test")).toBeNull();
  });

  it("validates the body and the file: base64, UTF-8, a header row, readable CSV", async () => {
    const bad = async (body: Record<string, unknown>) =>
      expectError(
        await org.owner.api.post("/v1/contacts/import", {
          file_content: base64("Email\na@example.test\n"),
          column_mappings: standard.slice(0, 1),
          handle_missing: "create",
          ...body,
        }),
        400,
        "VALIDATION_ERROR",
      ).details![0].path;
    expect(await bad({ handle_missing: "maybe" })).toBe("handle_missing");
    expect(await bad({ handle_missing: undefined })).toBe("handle_missing");
    expect(await bad({ file_content: 42 })).toBe("file_content");
    expect(await bad({ file_content: "not base64!" })).toBe("file_content");
    expect(await bad({ file_content: "" })).toBe("file_content");
    expect(await bad({ file_content: base64(Buffer.from([0x45, 0x6d, 0x61, 0x69, 0x6c, 0x0a, 0xff, 0xfe, 0x0a])) })).toBe("file_content");
    expect(await bad({ file_content: base64('Email\n"unclosed@example.test\n') })).toBe("file_content");
    expect(await bad({ segment_id: "nope" })).toBe("segment_id");
    expect(await bad({ segment_id: 5 })).toBe("segment_id");
    expect(await bad({ file_content: undefined })).toBe("file_content");
    expect(await bad({ file_content: base64("Email\na@example.test\n") + "\u0000" })).toBe("file_content");
    expect(await bad({ column_mappings: undefined })).toBe("column_mappings");
    expect(await bad({ column_mappings: "Email" })).toBe("column_mappings");
    expect(await bad({ column_mappings: [{ csv_column: "Email" }] })).toBe("column_mappings.0.property_name");
    expect(await bad({ column_mappings: [{ csv_column: "Email", property_name: "x".repeat(101) }] })).toBe("column_mappings.0.property_name");
    expect(await bad({ column_mappings: [{ csv_column: "Em\u0000ail", property_name: "email" }] })).toBe("column_mappings.0.csv_column");
    expect(await bad({ column_mappings: [{ csv_column: "x".repeat(1001), property_name: "email" }] })).toBe("column_mappings.0.csv_column");
    expect(await bad({ column_mappings: Array.from({ length: 501 }, (_, i) => ({ csv_column: "Email", property_name: `p${i}` })) })).toBe("column_mappings");
    expect(await contact(org, "a@example.test")).toBeNull();
  });

  it("decodes large files in chunks: a character split between chunks stays whole, bad bytes late in the file are 400", async () => {
    const fresh = await createTestOrg();
    const rows = Array.from({ length: 1500 }, (_, i) => `chunk${i}@example.test,${"é".repeat(30)}\n`).join("");
    const mappings = [{ csv_column: "Email", property_name: "email" }];
    // The file is read in 64 KB pieces; shift the text by one byte if needed so that one "é" straddles the first cut.
    let csv = Buffer.from(`Email,Note\n${rows}`);
    if ((csv[64 * 1024] & 0xc0) !== 0x80) csv = Buffer.from(`Email,Notes\n${rows}`);
    expect(csv[64 * 1024] & 0xc0).toBe(0x80);
    const note = csv.includes("Notes") ? "Notes" : "Note";
    const result = await importCsv(fresh, csv, { column_mappings: [...mappings, { csv_column: note, property_name: "note" }] });
    expect(result.body).toEqual({ created: 1500, updated: 0, skipped: 0, errors: [], errors_total: 0, flagged: NO_FLAGS });
    const notes = await db.contact.findMany({ where: { organization_id: fresh.organizationId }, select: { metadata: true } });
    expect(notes.every((c) => (c.metadata as { note: string }).note === "é".repeat(30))).toBe(true);

    const broken = Buffer.concat([
      Buffer.from(`Email\n${Array.from({ length: 5000 }, (_, i) => `late${i}@example.test\n`).join("")}`),
      Buffer.from([0xff, 0x0a]),
    ]);
    expect(broken.length).toBeGreaterThan(64 * 1024);
    const error = expectError(await importCsv(fresh, broken, { column_mappings: mappings }), 400, "VALIDATION_ERROR");
    expect(error.details![0].path).toBe("file_content");
    expect(await contact(fresh, "late0@example.test")).toBeNull();
  });

  it("keeps no temporary file, open or on disk, after an import that stops early or succeeds", async () => {
    // Only this process's files: other test files (and other runs) may be importing at the same time.
    const ours = `mailplatform-import-${process.pid}-`;
    const openUploads = () =>
      readdirSync("/proc/self/fd").filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).includes(ours);
        } catch {
          return false;
        }
      });
    const fresh = await createTestOrg();
    // Large enough that the parser is paused, waiting for the import to read on, when the mapping fails.
    const csv = `Email,Name\n${Array.from({ length: 60_000 }, (_, i) => `open${i}@example.test,Someone ${i}`).join("\n")}\n`;
    const failed = await importCsv(fresh, csv, { column_mappings: [{ csv_column: "Mail", property_name: "email" }] });
    expectError(failed, 400, "VALIDATION_ERROR");
    expect(openUploads()).toEqual([]);
    const done = await importCsv(fresh, csv, { column_mappings: [{ csv_column: "Email", property_name: "email" }] });
    expect(done.body.created).toBe(60_000);
    expect(openUploads()).toEqual([]);
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith(ours))).toEqual([]);
  });

  it("answers 413 for decoded CSV over 50 MB", async () => {
    const header = "Email\n";
    const big = Buffer.alloc(50 * 1024 * 1024 + 1, "a");
    big.write(header);
    expectError(await importCsv(org, big, { column_mappings: standard.slice(0, 1) }), 413, "PAYLOAD_TOO_LARGE");
  });

  it("works per organization: the same email elsewhere is another contact, left unchanged", async () => {
    const theirs = await db.contact.create({ data: { organization_id: other.organizationId, email: "shared@example.test", first_name: "Theirs" } });
    const result = await importCsv(org, "Email,First Name,Last Name\nshared@example.test,Mine,\n");
    expect(result.body).toMatchObject({ created: 1, updated: 0 });
    expect(await db.contact.findUnique({ where: { id: theirs.id } })).toEqual(theirs);
    expect((await contact(org, "shared@example.test"))!.first_name).toBe("Mine");
  });

  it("still succeeds when another request creates one of the file's emails while the import runs", async () => {
    const fresh = await createTestOrg();
    const racer = await pool.connect();
    try {
      await racer.query("BEGIN");
      await racer.query("INSERT INTO contacts (organization_id, email, first_name) VALUES ($1, 'race@example.test', 'Racer')", [fresh.organizationId]);
      // The import's insert waits on the racer's uncommitted row, then meets it as a unique violation.
      const pending = importCsv(fresh, "Email,First Name,Last Name\nrace@example.test,Importer,\ncalm@example.test,Calm,\n");
      await new Promise((resolve) => setTimeout(resolve, 500));
      await racer.query("COMMIT");
      const result = await pending;
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ created: 1, updated: 0, skipped: 1, errors: [], errors_total: 0, flagged: NO_FLAGS });
    } finally {
      racer.release();
    }
    expect((await contact(fresh, "race@example.test"))!.first_name).toBe("Racer");
    expect((await contact(fresh, "calm@example.test"))!.first_name).toBe("Calm");
  });

  // Issue 27, import hygiene: invalid syntax, disposable domains and role accounts flagged in the
  // result, and left out when asked.
  describe("address hygiene", () => {
    const csv = [
      "Email,First Name,Last Name",
      "person@acme.test,Pat,",
      "Info@Acme.test,Front,Desk",
      "not-an-address,Bad,",
      "temp@mailinator.com,Temp,",
      ",No address,",
      "sales+promo@x.mailinator.com,Both,",
      "ops@acme.test,Ops,",
      "ops@acme.test,Ops again,",
    ].join("\n");
    const rows = [
      { row: 3, email: "Info@Acme.test", flags: ["role"] },
      { row: 5, email: "temp@mailinator.com", flags: ["disposable"] },
      { row: 7, email: "sales+promo@x.mailinator.com", flags: ["disposable", "role"] },
      { row: 8, email: "ops@acme.test", flags: ["role"] },
      { row: 9, email: "ops@acme.test", flags: ["role"] },
    ];

    it("flags invalid, disposable and role addresses in the result, and imports them unless asked not to", async () => {
      const fresh = await createTestOrg();
      const result = await importCsv(fresh, csv);
      expect(result.status).toBe(200);
      expect(result.body).toMatchObject({ created: 5, updated: 0, skipped: 3, errors_total: 3 });
      expect(result.body.errors.map((e: { row: number }) => e.row)).toEqual([4, 6, 9]);
      expect(result.body.flagged).toEqual({
        invalid: 2,
        disposable: 2,
        role: 4,
        skipped: 0,
        rows: rows.map((r) => ({ ...r, skipped: false })),
      });
      expect(await contact(fresh, "info@acme.test")).not.toBeNull();
      expect(await contact(fresh, "temp@mailinator.com")).not.toBeNull();
    });

    it("leaves out the flags named in skip_flagged, new and existing contacts alike, counted in skipped", async () => {
      const fresh = await createTestOrg();
      await db.contact.create({ data: { organization_id: fresh.organizationId, email: "ops@acme.test", first_name: "Kept" } });
      const result = await importCsv(fresh, csv, { skip_flagged: ["disposable", "role"] });
      expect(result.body).toMatchObject({ created: 1, updated: 0, skipped: 7, errors_total: 2 });
      expect(result.body.flagged).toMatchObject({ invalid: 2, disposable: 2, role: 4, skipped: 5 });
      expect(result.body.flagged.rows.every((r: { skipped: boolean }) => r.skipped)).toBe(true);
      expect(await contact(fresh, "info@acme.test")).toBeNull();
      expect(await contact(fresh, "temp@mailinator.com")).toBeNull();
      expect((await contact(fresh, "ops@acme.test"))!.first_name).toBe("Kept");

      const onlyDisposable = await importCsv(await createTestOrg(), csv, { skip_flagged: ["disposable"] });
      expect(onlyDisposable.body).toMatchObject({ created: 3, skipped: 5 });
      // A row of both flags is left out when either is skipped.
      expect(onlyDisposable.body.flagged.rows.map((r: { skipped: boolean }) => r.skipped)).toEqual([false, true, true, false, false]);
    });

    it("refuses an unknown flag", async () => {
      expectError(await importCsv(org, csv, { skip_flagged: ["spam"] }), 400, "VALIDATION_ERROR");
    });
  });

  it("answers 401 without a credential", async () => {
    const result = await client(null).post("/v1/contacts/import", { file_content: base64("Email\n"), column_mappings: standard, handle_missing: "create" });
    expectError(result, 401, "UNAUTHORIZED");
  });
});
