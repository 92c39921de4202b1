// npm run db:migrate — applies pending migrations to the configured database (the servers do this
// on start too; this is for deploy pipelines that migrate first).
import { ensureDatabase } from "@/lib/db/ensure-database";
import { exitOnStartupError } from "@/lib/db/startup-error";

const url = await ensureDatabase().catch(exitOnStartupError);
console.log(`migrated ${new URL(url).pathname.slice(1)}`);
