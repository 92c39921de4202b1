// `npm run bench [-- --quick] [-- --json] [-- --only import,list-contacts] [-- --keep] [-- --slot 1]`
// The environment of the benchmark (its own database, port and secret) is fixed here, before any
// module of the application reads process.env; the work itself is in ./main.
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { benchDatabaseUrl, benchPlace } from "./config";

const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    json: { type: "boolean", default: false },
    only: { type: "string" },
    keep: { type: "boolean", default: false },
    slot: { type: "string", default: "0" },
    help: { type: "boolean", default: false },
  },
  strict: true,
});

if (values.help) {
  process.stderr.write(
    "usage: npm run bench -- [--quick] [--json] [--only <scenario,...>] [--keep] [--slot <n>]\n" +
      "  --quick  every scenario at 1/20 of its size\n" +
      "  --json   one JSON array of the results on standard output (the table stays on standard error)\n" +
      "  --only   import, bulk, check-emails, list-contacts, memory-list, list-emails, get-broadcast, broadcast-send, slow-relay, scale-workers, scale-web, import-then-send, broadcast-report, intake, email-batch, submission, attachment-memory, dashboard, dynamic-segment, thread-inbox, imap-replies, events-ingest, contacts-export, form-submit, automations, conditional-blocks, cancel-large, retention-beside-send, send-at-10m\n" +
      "  --keep   keep the benchmark database afterwards\n" +
      "  --slot   another data directory, database and ports (slot n: .data/bench-n, PostgreSQL 54380+n, server 3500+n)\n" +
      "Needs the production build: run `npm run build` first.\n",
  );
  process.exit(0);
}

if (!existsSync(path.join(process.cwd(), ".next", "BUILD_ID"))) {
  process.stderr.write("bench: no production build in .next — run `npm run build` first, then `npm run bench`.\n");
  process.exit(1);
}

const slot = Number(values.slot);
if (!Number.isInteger(slot) || slot < 0 || slot > 9) {
  process.stderr.write("bench: --slot is a number from 0 to 9\n");
  process.exit(2);
}
const place = benchPlace(slot);
const adminUrl = process.env.DATABASE_URL;
process.env.DATABASE_URL = benchDatabaseUrl(place, adminUrl);
process.env.DATA_DIR = place.dataDir;
process.env.EMBEDDED_PG_PORT = String(place.pgPort);
process.env.PORT = String(place.port);
process.env.AUTH_SECRET ??= "bench-secret-not-for-production-0123456789";
process.env.NEXT_TELEMETRY_DISABLED = "1";

const { main } = await import("./main");
process.exitCode = await main({
  quick: values.quick,
  json: values.json,
  only: values.only ? values.only.split(",").map((s) => s.trim()) : undefined,
  keep: values.keep,
  place,
  external: adminUrl !== undefined,
});
