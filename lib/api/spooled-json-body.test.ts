import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/domain/errors";
import { readSpooledJsonBody, type Spooled } from "./spooled-json-body";

/** A body delivered in `size`-byte pieces, without a declared length. */
function post(body: string, size = 7, headers: Record<string, string> = {}) {
  const bytes = new TextEncoder().encode(body);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += size) controller.enqueue(bytes.slice(i, i + size));
      controller.close();
    },
  });
  return new Request("http://test.local/v1/x", { method: "POST", body: stream, headers, duplex: "half" } as RequestInit);
}

type Recorded = Spooled & { text: string; chunks: number; disposed: boolean };

function recorder() {
  const made: Recorded[] = [];
  const field = {
    name: "file",
    spool: async (text: AsyncIterable<string>) => {
      const spooled: Recorded = { text: "", chunks: 0, disposed: false, dispose: async () => void (spooled.disposed = true) };
      made.push(spooled);
      for await (const chunk of text) {
        spooled.text += chunk;
        spooled.chunks++;
      }
      return spooled;
    },
  };
  return { field, made };
}

const failure = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
};

describe("readSpooledJsonBody", () => {
  it("hands the field's text to the spool in pieces and assembles the rest as JSON.parse would", async () => {
    const { field, made } = recorder();
    const large = "QUJD\\n" + "x".repeat(2000) + '\\u00e9\\"';
    const rest = { a: [1, 2.5, -3e2, { b: null }], c: true, d: false, e: 'caf\u00e9 "quoted" \\ \n', nested: { file: "not me" } };
    const json = `{"a":${JSON.stringify(rest.a)},"file":"${large}","c":true,"d":false,"e":${JSON.stringify(rest.e)},"nested":{"file":"not me"}}`;
    const { body, spooled } = await readSpooledJsonBody(post(json), 1_000_000, field);
    expect(body).toEqual({ ...rest, file: "" });
    expect(made).toHaveLength(1);
    expect(spooled).toBe(made[0]);
    expect(made[0].text).toBe(JSON.parse(`"${large}"`));
    expect(made[0].chunks).toBeGreaterThan(1);
    expect(made[0].disposed).toBe(false);
  });

  it("leaves a field that is not a string to the schema, and keeps only the last of a repeated field", async () => {
    const numeric = recorder();
    expect((await readSpooledJsonBody(post('{"file": 42}'), 1000, numeric.field)).body).toEqual({ file: 42 });
    expect(numeric.made).toHaveLength(0);

    const twice = recorder();
    const { body, spooled } = await readSpooledJsonBody(post('{"file":"first","x":1,"file":"second"}'), 1000, twice.field);
    expect(body).toEqual({ file: "", x: 1 });
    expect(twice.made.map((s) => [s.text, s.disposed])).toEqual([
      ["first", true],
      ["second", false],
    ]);
    expect(spooled).toBe(twice.made[1]);
  });

  it("reads an empty body as {}", async () => {
    const { field } = recorder();
    expect(await readSpooledJsonBody(post("  \n"), 1000, field)).toEqual({ body: {}, spooled: undefined });
  });

  it("refuses invalid JSON with 400, disposing of what was spooled", async () => {
    for (const json of ['{"file":"abc"', '{"file":"abc"} trailing', '{"file":"abc",}', "{not json", '{"file":"ab\\q"}']) {
      const { field, made } = recorder();
      const error = await failure(readSpooledJsonBody(post(json, 3), 1000, field));
      expect(error.code, json).toBe("VALIDATION_ERROR");
      expect(made.every((s) => s.disposed)).toBe(true);
    }
  });

  it("refuses a body over the limit with 413, declared or not", async () => {
    const json = `{"file":"${"A".repeat(5000)}"}`;
    const streamed = recorder();
    expect((await failure(readSpooledJsonBody(post(json, 512), 4096, streamed.field))).code).toBe("PAYLOAD_TOO_LARGE");
    expect(streamed.made.every((s) => s.disposed)).toBe(true);

    const declared = recorder();
    const request = post(json, 512, { "content-length": String(json.length) });
    expect((await failure(readSpooledJsonBody(request, 4096, declared.field))).code).toBe("PAYLOAD_TOO_LARGE");
    expect(declared.made).toHaveLength(0);
  });

  it("passes on an error of the spool itself", async () => {
    const field = {
      name: "file",
      spool: async (text: AsyncIterable<string>): Promise<Spooled> => {
        for await (const chunk of text) if (chunk.includes("!")) throw new AppError("PAYLOAD_TOO_LARGE", "too much");
        return { dispose: async () => undefined };
      },
    };
    expect((await failure(readSpooledJsonBody(post('{"file":"abc!def"}'), 1000, field))).code).toBe("PAYLOAD_TOO_LARGE");
  });
});
