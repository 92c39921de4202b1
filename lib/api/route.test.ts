import { describe, expect, it } from "vitest";
import { createTestOrg, request } from "@/lib/testing/api";

describe("request bodies", () => {
  it("reads bodies with and without a declared length, in many chunks, and refuses one over the limit with 413", async () => {
    const org = await createTestOrg();
    const name = "x".repeat(150);
    const payload = JSON.stringify({ name });
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        const bytes = new TextEncoder().encode(payload);
        for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.slice(i, i + 7));
        controller.close();
      },
    });
    const created = await request("POST", "/v1/api-keys", { token: org.owner.token, stream: chunked });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe(name);

    const declared = await request("POST", "/v1/api-keys", {
      token: org.owner.token,
      rawBody: payload,
      headers: { "content-length": String(Buffer.byteLength(payload)) },
    });
    expect(declared.status).toBe(201);

    const tooBig = await request("POST", "/v1/api-keys", { token: org.owner.token, rawBody: JSON.stringify({ name: "y".repeat(6 * 1024 * 1024) }) });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.code).toBe("PAYLOAD_TOO_LARGE");

    const broken = await request("POST", "/v1/api-keys", { token: org.owner.token, rawBody: "{not json" });
    expect(broken.status).toBe(400);
    expect(broken.body.code).toBe("VALIDATION_ERROR");
  });
});
