import { fork } from "node:child_process";
import path from "node:path";
import pg from "pg";
import { migrate } from "@/lib/db/migrate";
import type { Bench, ProductOrg } from "../bench";
import { HttpClient } from "../http";
import { ProductServer, SendingWorker } from "../processes";
import { WORKER_ENTRY } from "./broadcast-send";

/** The benchmark's server port plus this, plus the database's index: the servers of the scenarios' own databases. */
const PORT_OFFSET = 40;

const withDatabase = (url: string, name: string) => {
  const next = new URL(url);
  next.pathname = `/${name}`;
  return next.toString();
};

/**
 * A fresh, migrated database of the scenario's own beside the benchmark's (`<database>_<suffix>`),
 * with a production server and a sending worker on it, and a Bench whose pool, client, server and
 * createOrg are its: sends on it compare with sends on another such database in the same run.
 */
export async function ownDatabase(bench: Bench, suffix: string, index: number) {
  const base = new URL(bench.databaseUrl);
  const name = `${base.pathname.slice(1)}_${suffix}`;
  const url = withDatabase(bench.databaseUrl, name);
  const admin = new pg.Client({ connectionString: withDatabase(bench.databaseUrl, "postgres") });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  await migrate(url);
  const port = bench.server.port + PORT_OFFSET + index;
  const env = { ...bench.serverEnv, DATABASE_URL: url, APP_URL: `http://127.0.0.1:${port}` };
  const server = new ProductServer(port, path.join(bench.dataDir, `server-${suffix}.log`), env);
  await server.start();
  const pool = new pg.Pool({ connectionString: url, max: 6 });
  const http = new HttpClient("127.0.0.1", port, bench.sizes.connections);
  const createOrg = (orgName: string) =>
    new Promise<ProductOrg>((resolve, reject) => {
      const child = fork(path.join(import.meta.dirname, "..", "make-org.ts"), [orgName], {
        execArgv: ["--import", "tsx"],
        env: { ...process.env, DATABASE_URL: url },
        stdio: ["ignore", "ignore", "inherit", "ipc"],
      });
      child.once("message", (message: ProductOrg) => resolve(message));
      child.once("exit", (code) => reject(new Error(`make-org exited with ${code}`)));
    });
  const own: Bench = { ...bench, databaseUrl: url, pg: pool, http, server, serverEnv: env, createOrg, fixtures: new Map() };
  return {
    bench: own,
    url,
    /** Starts its worker, with extra settings (retention's, say). */
    startWorker: (extra: Record<string, string> = {}) => {
      const w = new SendingWorker(path.join(bench.dataDir, `worker-${suffix}.log`), { ...env, ...extra });
      w.start(WORKER_ENTRY);
      return w;
    },
    close: async () => {
      http.close();
      await server.stop();
      await pool.end();
      const drop = new pg.Client({ connectionString: withDatabase(bench.databaseUrl, "postgres") });
      await drop.connect();
      await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await drop.end();
    },
  };
}
