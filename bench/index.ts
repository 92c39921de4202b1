// `npm run bench [-- --quick] [-- --json] [-- --only import,list-contacts] [-- --keep]`
// The environment of the benchmark (its own database, port and secret) is fixed here, before any
// module of the application reads process.env; the work itself is in ./main.
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { benchDatabaseUrl, BENCH_DATA_DIR, BENCH_PG_PORT, BENCH_PORT } from "./config";

const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    json: { type: "boolean", default: false },
    only: { type: "string" },
    keep: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
  strict: true,
});

if (values.help) {
  process.stderr.write(
    "usage: npm run bench -- [--quick] [--json] [--only <scenario,...>] [--keep]\n" +
      "  --quick  every scenario at 1/20 of its size\n" +
      "  --json   one JSON array of the results on standard output (the table stays on standard error)\n" +
      "  --only   import, bulk, check-emails, list-contacts, memory-list, list-emails, get-broadcast, broadcast-send\n" +
      "  --keep   keep the benchmark database afterwards\n" +
      "Needs the production build: run `npm run build` first.\n",
  );
  process.exit(0);
}

if (!existsSync(path.join(process.cwd(), ".next", "BUILD_ID"))) {
  process.stderr.write("bench: no production build in .next — run `npm run build` first, then `npm run bench`.\n");
  process.exit(1);
}

const adminUrl = process.env.DATABASE_URL;
process.env.DATABASE_URL = benchDatabaseUrl(adminUrl);
process.env.DATA_DIR = BENCH_DATA_DIR;
process.env.EMBEDDED_PG_PORT = String(BENCH_PG_PORT);
process.env.PORT = String(BENCH_PORT);
process.env.AUTH_SECRET ??= "bench-secret-not-for-production-0123456789";
process.env.NEXT_TELEMETRY_DISABLED = "1";

const { main } = await import("./main");
process.exitCode = await main({
  quick: values.quick,
  json: values.json,
  only: values.only ? values.only.split(",").map((s) => s.trim()) : undefined,
  keep: values.keep,
  external: adminUrl !== undefined,
});
