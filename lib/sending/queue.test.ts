import { describe, expect, it } from "vitest";
import { parseBroadcastStartPayload } from "./queue";

describe("the broadcast:start job's payload", () => {
  it("is taken as it was queued", () => {
    const payload = { broadcastId: "0d9f7b6e-6c1f-4c56-9a4b-1a2b3c4d5e6f", organizationId: "6f5e4d3c-2b1a-4b9a-8c65-1f6c6e7b9f0d" };
    expect(parseBroadcastStartPayload(payload)).toEqual(payload);
  });

  it("fails the job with the reason when it is malformed", () => {
    for (const payload of [
      null,
      "x",
      {},
      { broadcastId: "not-a-uuid", organizationId: "6f5e4d3c-2b1a-4b9a-8c65-1f6c6e7b9f0d" },
      { broadcastId: "0d9f7b6e-6c1f-4c56-9a4b-1a2b3c4d5e6f" },
    ]) {
      expect(() => parseBroadcastStartPayload(payload)).toThrow(/broadcast:start: malformed payload/);
    }
  });
});
