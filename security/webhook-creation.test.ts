import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { outboundPolicy } from "@/lib/net/outbound-policy";
import { createWebhook, updateWebhook } from "@/lib/services/webhooks";
import { createTestOrg, expectError, type TestOrg } from "@/lib/testing/api";
import { fakeResolver, ownerContext } from "./trust-fixtures";

// Deliveries already refused private addresses, but only after the webhook was saved: each of its
// events then failed for two days. A URL deliveries can never reach is refused when it is given.

const strict = outboundPolicy({ lookup: fakeResolver((name) => (name === "internal.example.com" ? ["10.0.0.7"] : ["93.184.216.34"])).lookup });

const refused = [
  "http://127.0.0.1:5432/hook",
  "http://127.1/hook",
  "http://2130706433/hook",
  "http://[::1]/hook",
  "http://[::ffff:127.0.0.1]/hook",
  "http://localhost:3000/api/hook",
  "http://LOCALHOST./hook",
  "http://10.1.2.3/hook",
  "http://192.168.0.1/hook",
  "http://100.64.1.1/hook",
  "http://169.254.169.254/latest/meta-data/",
  "http://[fd00:ec2::254]/latest/meta-data/",
  "https://internal.example.com/hook",
];

describe("webhook URLs on private addresses", () => {
  let org: TestOrg;
  beforeAll(async () => {
    org = await createTestOrg("Hooks");
  });

  it.each(refused)("refuses %s when the webhook is created or updated", async (url) => {
    const ctx = ownerContext(org);
    await expect(createWebhook(ctx, { url, events: ["email.sent"] }, strict)).rejects.toMatchObject({ code: "VALIDATION_ERROR", details: [{ path: "url" }] });
    const fine = await createWebhook(ctx, { url: "https://hooks.example.com/in", events: ["email.sent"] }, strict);
    await expect(updateWebhook(ctx, fine.id, { url }, strict)).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    expect((await db.webhook.findUniqueOrThrow({ where: { id: fine.id } })).url).toBe("https://hooks.example.com/in");
  });

  it("refuses private and metadata URLs through the API as configured", async () => {
    for (const url of ["http://10.1.2.3/hook", "http://169.254.169.254/latest/meta-data/", "http://[fd00:ec2::254]/x"]) {
      const answer = await org.owner.api.post("/v1/webhooks", { url, events: ["email.sent"] });
      expect(expectError(answer, 400, "VALIDATION_ERROR").details).toEqual([{ path: "url", message: expect.stringContaining("public address") }]);
    }
    expect(await db.webhook.count({ where: { organization_id: org.organizationId, url: { contains: "169.254" } } })).toBe(0);
  });
});
