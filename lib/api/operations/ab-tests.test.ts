import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestOrg, expectError, type TestOrg } from "@/lib/testing/api";
import { seedSegment, verifiedDomain } from "@/lib/testing/sending-fixtures";

const variants = [{ subject: "Subject A" }, { subject: "Subject B", html_content: "<p>B</p>", text_content: "B" }];
const abTest = { test_percent: 20, metric: "unique_opens", wait_minutes: 120 };

describe("A/B tests of broadcasts (API)", () => {
  let org: TestOrg;
  let segmentId: string;
  beforeAll(async () => {
    org = await createTestOrg();
    await verifiedDomain(org.organizationId, "acme.test");
    segmentId = (await seedSegment(org.organizationId, [{}, {}])).segmentId;
  });

  const create = (body: Record<string, unknown>) =>
    org.owner.api.post("/v1/broadcasts", { name: "A/B", subject: "Hello", from_email: "news@acme.test", segment_id: segmentId, ...body });

  it("creates a broadcast with variants and test settings, and reads them back", async () => {
    const created = await create({ html_content: "<p>Hi</p>", variants, ab_test: abTest });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ variants, ab_test: abTest, ab_decide_at: null, ab_winner_index: null });
    const read = await org.owner.api.get(`/v1/broadcasts/${created.body.id}`);
    expect(read.body).toMatchObject({ variants, ab_test: abTest, ab_decide_at: null, ab_winner_index: null });
  });

  it("refuses variants without test settings, settings without variants, and counts or shares out of range", async () => {
    expect(expectError(await create({ variants }), 400, "VALIDATION_ERROR").details).toEqual([{ path: "ab_test", message: expect.any(String) }]);
    expect(expectError(await create({ ab_test: abTest }), 400, "VALIDATION_ERROR").details).toEqual([{ path: "variants", message: expect.any(String) }]);
    const bad = [
      { variants: [variants[0]], ab_test: abTest },
      { variants: [...variants, ...variants, variants[0]], ab_test: abTest },
      { variants, ab_test: { ...abTest, test_percent: 4 } },
      { variants, ab_test: { ...abTest, test_percent: 51 } },
      { variants, ab_test: { ...abTest, metric: "opens" } },
      { variants, ab_test: { ...abTest, wait_minutes: 0 } },
      { variants: [{ subject: "" }, { subject: "B" }], ab_test: abTest },
    ];
    for (const body of bad) expectError(await create(body), 400, "VALIDATION_ERROR");
  });

  it("adds, changes and removes the test on a draft; the other half must follow", async () => {
    const { body } = await create({ html_content: "<p>Hi</p>" });
    const put = (change: Record<string, unknown>) => org.owner.api.put(`/v1/broadcasts/${body.id}`, change);
    expectError(await put({ variants }), 400, "VALIDATION_ERROR");
    expect((await put({ variants, ab_test: abTest })).body).toMatchObject({ variants, ab_test: abTest });
    expect((await put({ ab_test: { ...abTest, metric: "unique_clicks" } })).body.ab_test.metric).toBe("unique_clicks");
    expectError(await put({ variants: null }), 400, "VALIDATION_ERROR");
    expect((await put({ variants: null, ab_test: null })).body).toMatchObject({ variants: null, ab_test: null });
  });

  it("refuses a test whose metric is not tracked: by opens without the pixel, by clicks without click tracking", async () => {
    const path = async (answer: Awaited<ReturnType<typeof create>>) => expectError(answer, 400, "VALIDATION_ERROR").details!.map((d) => d.path);
    expect(await path(await create({ html_content: "<p>Hi</p>", variants, ab_test: abTest, track_opens: false }))).toEqual(["ab_test.metric"]);
    const { body } = await create({ html_content: "<p>Hi</p>", variants, ab_test: { ...abTest, metric: "unique_clicks" } });
    const put = (change: Record<string, unknown>) => org.owner.api.put(`/v1/broadcasts/${body.id}`, change);
    expect((await put({ track_opens: false })).body.track_opens).toBe(false);
    expect(await path(await put({ track_clicks: false }))).toEqual(["ab_test.metric"]);
    expect(await path(await put({ ab_test: abTest }))).toEqual(["ab_test.metric"]);
    expect((await put({ ab_test: abTest, track_opens: true })).body).toMatchObject({ ab_test: abTest, track_opens: true });
  });

  it("sends a broadcast whose only content is its variants'", async () => {
    const own = [
      { subject: "A", html_content: "<p>A</p>" },
      { subject: "B", text_content: "B" },
    ];
    const { body } = await create({ variants: own, ab_test: abTest });
    expect((await org.owner.api.post(`/v1/broadcasts/${body.id}/send`)).status).toBe(200);
    // A variant without content of its own needs the broadcast's.
    const { body: second } = await create({ variants: [own[0], { subject: "B" }], ab_test: abTest });
    const refused = expectError(await org.owner.api.post(`/v1/broadcasts/${second.id}/send`), 400, "BROADCAST_NOT_SENDABLE");
    expect(refused.details?.map((d) => d.path)).toContain("html_content");
    await db.broadcast.deleteMany({ where: { organization_id: org.organizationId, status: "scheduled" } });
  });
});
