import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { operations } from "@/lib/api/operations";

// The registry is what the OpenAPI document and the tests see; the route files are what Next.js
// serves. They must agree: every operation has a route file that exports its method, and no route
// file under app/v1 serves a method that is not in the registry.
const appDir = path.resolve("app");
// The catch-all under app/v1 serves no operation: it answers unknown paths with the JSON 404.
const routeFiles = readdirSync(path.join(appDir, "v1"), { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith("route.ts") && !file.startsWith("[[...path]]"))
  .map((file) => path.join("v1", file));

const pattern = (segments: string[]) => segments.map((s) => (/^\[.+\]$|^\{.+\}$/.test(s) ? "*" : s)).join("/");

describe("route files", () => {
  it("serve exactly the operations of the registry", async () => {
    const served = new Set<string>();
    for (const file of routeFiles) {
      const mod = (await import(/* @vite-ignore */ path.join(appDir, file))) as Record<string, unknown>;
      const urlPattern = pattern(["", ...path.dirname(file).split(path.sep)]);
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
        if (typeof mod[method] === "function") served.add(`${method} ${urlPattern}`);
      }
    }
    served.delete("GET /v1/openapi.json");
    const registered = new Set(operations.map((op) => `${op.method} ${pattern(op.path.split("/"))}`));
    expect(
      [...registered].filter((entry) => !served.has(entry)),
      "operations without a route file",
    ).toEqual([]);
    expect(
      [...served].filter((entry) => !registered.has(entry)),
      "route exports outside the registry",
    ).toEqual([]);
  });
});
