import { rmSync } from "node:fs";
import path from "node:path";
import { createDatabaseIfMissing } from "@/lib/db/ensure-database";
import { ensureEmbeddedCluster, stopEmbeddedCluster } from "@/lib/db/embedded";
import { migrate } from "@/lib/db/migrate";
import { freePort } from "./free-port";

export type OwnCluster = {
  /** A migrated database on the cluster. */
  url: string;
  port: number;
  /** Stops PostgreSQL (fast shutdown: every connection is dropped, as in an outage or a restart). */
  stop: () => Promise<void>;
  start: () => Promise<void>;
  /** Stops it and deletes its files. */
  destroy: () => Promise<void>;
};

/**
 * An embedded PostgreSQL cluster of the test's own, which the test may stop and start at will —
 * never the shared test cluster other test files are using.
 */
export async function startOwnCluster(label: string): Promise<OwnCluster> {
  const port = await freePort();
  const dataDir = path.resolve(`.data/faults-${label}-${process.pid}`);
  rmSync(dataDir, { recursive: true, force: true });
  const start = async () => void (await ensureEmbeddedCluster({ dataDir, port }));
  await start();
  const url = `postgresql://postgres:postgres@127.0.0.1:${port}/mailplatform`;
  await createDatabaseIfMissing(url);
  await migrate(url);
  const stop = () => stopEmbeddedCluster(dataDir);
  return {
    url,
    port,
    stop,
    start,
    destroy: async () => {
      await stop().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
