import { describe, expect, it } from "vitest";
import { unavailableAnswer } from "./public-answers";

// A flood of signups held every connection of the pool: interactive transactions that waited past
// their maxWait failed with Prisma's P2028, which the public endpoints answered as a 500.
const poolWait = Object.assign(new Error("Transaction API error: Unable to start a transaction in the given time."), { code: "P2028", meta: {} });

describe("a public page's answer when the database is busy", () => {
  it("is 503 with Retry-After, JSON for a script and a page for a person, and nothing for other errors", async () => {
    const asJson = unavailableAnswer(poolWait, true)!;
    expect(asJson.status).toBe(503);
    expect(asJson.headers.get("retry-after")).toBe("5");
    expect(await asJson.json()).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    const page = unavailableAnswer(poolWait, false)!;
    expect([page.status, page.headers.get("content-type")]).toEqual([503, "text/html; charset=utf-8"]);
    expect(unavailableAnswer(new TypeError("a bug"), true)).toBeNull();
  });
});
