import { stopEmbeddedCluster } from "@/lib/db/embedded";
import { env } from "@/lib/env";

await stopEmbeddedCluster(env.dataDir);
console.log("embedded PostgreSQL stopped");
