// npm run db:migrate — applies pending migrations to the configured database (the servers do this
// on start too; this is for deploy pipelines that migrate first).
import { ensureDatabase } from "@/lib/db/ensure-database";

const url = await ensureDatabase();
console.log(`migrated ${new URL(url).pathname.slice(1)}`);
