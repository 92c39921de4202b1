import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { operations } from "@/lib/api/operations";
import { execute } from "@/lib/api/route";
import { createLogger, setLogOrganization, withLogContext } from "@/lib/log";
import { createTestOrg } from "@/lib/testing/api";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n")) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger(stream) };
}

describe("the structured log", () => {
  it("puts the request id and organization of the work in progress on every line, however deep", async () => {
    const { lines, logger } = capture();
    logger.info("outside");
    await withLogContext({ request_id: "req-1" }, async () => {
      logger.info("before the caller is known");
      setLogOrganization("org-1");
      await new Promise((resolve) => setTimeout(resolve, 1));
      logger.warn({ inbox_id: "inbox-1" }, "deeper, later");
    });
    expect(lines.map(({ msg, request_id, organization_id }) => ({ msg, request_id, organization_id }))).toEqual([
      { msg: "outside", request_id: undefined, organization_id: undefined },
      { msg: "before the caller is known", request_id: "req-1", organization_id: undefined },
      { msg: "deeper, later", request_id: "req-1", organization_id: "org-1" },
    ]);
    expect(lines[2]).toMatchObject({ level: 40, inbox_id: "inbox-1" });
  });

  it("answers every /v1 request with its request id: the caller's when sane, a new one otherwise", async () => {
    const org = await createTestOrg();
    const operation = operations.find((op) => op.method === "GET" && op.path === "/v1/organization")!;
    const call = (requestId?: string) =>
      execute(
        operation,
        new Request("http://localhost/v1/organization", {
          headers: { authorization: `Bearer ${org.owner.token}`, ...(requestId === undefined ? {} : { "x-request-id": requestId }) },
        }),
      );
    expect((await call("trace-42.a:b")).headers.get("x-request-id")).toBe("trace-42.a:b");
    const fresh = (await call()).headers.get("x-request-id");
    expect(fresh).toMatch(/^[0-9a-f-]{36}$/);
    const replaced = (await call("bad id\twith <spaces>")).headers.get("x-request-id");
    expect(replaced).toMatch(/^[0-9a-f-]{36}$/);
    expect(replaced).not.toBe(fresh);
  });
});
