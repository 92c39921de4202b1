import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";

type DiffTarget = { tag: "empty" } | { tag: "schemaDatamodel"; files: { path: string; content: string }[] };
type Engine = { diff(params: unknown): Promise<{ exitCode: number; stdout: string | null }>; free(): void };

/**
 * The SQL that takes a database from one Prisma datamodel to another, computed by Prisma's own
 * schema engine compiled to WASM (the native engine cannot be downloaded here). The engine wants
 * a reachable database on creation even though a datamodel-to-datamodel diff never reads it.
 */
export async function diffDatamodels(connectionString: string, from: string | null, to: string): Promise<string> {
  const require = createRequire(import.meta.url);
  const dir = path.dirname(require.resolve("@prisma/schema-engine-wasm/schema_engine_bg"));
  const glue = (await import(path.join(dir, "schema_engine_bg.js"))) as Record<string, unknown> & {
    __wbg_set_wasm(exports: WebAssembly.Exports): void;
    SchemaEngine: { new: (options: unknown, log: (message: string) => void, adapter: unknown) => Promise<Engine> };
  };
  const { instance } = await WebAssembly.instantiate(readFileSync(path.join(dir, "schema_engine_bg.wasm")), {
    "./schema_engine_bg.js": glue as WebAssembly.ModuleImports,
  });
  glue.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();

  const target = (content: string | null): DiffTarget =>
    content === null ? { tag: "empty" } : { tag: "schemaDatamodel", files: [{ path: "schema.prisma", content }] };
  const adapter = bindMigrationAwareSqlAdapterFactory(new PrismaPg({ connectionString }));
  const engine = await glue.SchemaEngine.new({ datamodels: [["schema.prisma", to]] }, () => undefined, adapter);
  try {
    const result = await engine.diff({
      from: target(from),
      to: target(to),
      script: true,
      exitCode: null,
      filters: { externalTables: [], externalEnums: [] },
    });
    return result.stdout ?? "";
  } finally {
    engine.free();
  }
}
