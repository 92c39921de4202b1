import { mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { db } from "@/lib/db";
import { pool as productPool } from "@/lib/db/pool";
import { ensureEmbeddedCluster, stopEmbeddedCluster } from "@/lib/db/embedded";
import { migrate } from "@/lib/db/migrate";
import { createOrganizationWithOwner } from "@/lib/services/accounts";
import { issueApiKey } from "@/lib/services/api-keys";
import { bareOrg, type Bench } from "./bench";
import { FULL, QUICK, type BenchPlace } from "./config";
import { HttpClient } from "./http";
import { ProductServer } from "./processes";
import { json, table, type RunInfo } from "./report";
import { scenarios } from "./scenarios/index";
import { Sink } from "./sink";
import type { Result } from "./stats";
import { unavailable } from "./stats";

export type Options = { quick: boolean; json: boolean; only?: string[]; keep: boolean; place: BenchPlace; external: boolean };

const log = (message: string) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);

function adminUrl(databaseUrl: string) {
  const url = new URL(databaseUrl);
  url.pathname = "/postgres";
  return url.toString();
}

/** A fresh, migrated database for this run; answers a function that removes it (and the cluster we started). */
async function freshDatabase(databaseUrl: string, options: Options, dataDir: string) {
  const { database, pgPort } = options.place;
  // Its own cluster when one is needed: another checkout's answering on the port is refused, as the app refuses it.
  const startedCluster = !options.external && (await ensureEmbeddedCluster({ dataDir, port: pgPort }));
  if (startedCluster) log(`started the embedded PostgreSQL under ${options.place.dataDir} on port ${pgPort}`);
  const admin = new pg.Client({ connectionString: adminUrl(databaseUrl) });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  await migrate(databaseUrl);
  return async () => {
    if (!options.keep) {
      const client = new pg.Client({ connectionString: adminUrl(databaseUrl) });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await client.end();
    }
    if (startedCluster && !options.keep) await stopEmbeddedCluster(dataDir);
  };
}

export async function main(options: Options): Promise<number> {
  const sizes = options.quick ? QUICK : FULL;
  const selected = options.only ? scenarios.filter((s) => options.only!.includes(s.id)) : scenarios;
  const unknown = (options.only ?? []).filter((id) => !scenarios.some((s) => s.id === id));
  if (unknown.length) {
    process.stderr.write(`bench: unknown scenario ${unknown.join(", ")}; known: ${scenarios.map((s) => s.id).join(", ")}\n`);
    return 2;
  }
  const databaseUrl = process.env.DATABASE_URL!;
  const { port } = options.place;
  const dataDir = path.resolve(options.place.dataDir);
  mkdirSync(dataDir, { recursive: true });

  const started = Date.now();
  const dropDatabase = await freshDatabase(databaseUrl, options, dataDir);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 6 });
  const sink = await Sink.start();
  const serverEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    SMTP_RELAY_URL: sink.url,
    APP_URL: `http://127.0.0.1:${port}`,
    // The limits would answer 429 to a load test; this high, they are still checked on every request.
    RATE_LIMIT_PER_SECOND: "1000000",
    RATE_LIMIT_ORGANIZATION_PER_SECOND: "1000000",
  };
  const server = new ProductServer(port, path.join(dataDir, "server.log"), serverEnv);
  const http = new HttpClient("127.0.0.1", port, sizes.connections);
  const results: Result[] = [];
  try {
    log(`starting the production server (next start) on port ${port}`);
    await server.start();
    const bench: Bench = {
      sizes,
      quick: options.quick,
      databaseUrl,
      pg: pool,
      server,
      http,
      sink,
      serverEnv,
      dataDir,
      createOrg: async (name) => {
        const { organization, user } = await createOrganizationWithOwner({ name, email: `owner+${nextOwner()}@bench.example` });
        const key = await issueApiKey(organization.id, user.id, "bench");
        return { organizationId: organization.id, token: key.token };
      },
      bareOrg: (name) => bareOrg(pool, name),
      fixtures: new Map(),
      log,
    };
    for (const scenario of selected) {
      log(`scenario ${scenario.id}`);
      const scenarioStarted = Date.now();
      try {
        results.push(...(await scenario.run(bench)));
      } catch (error) {
        log(`scenario ${scenario.id} failed: ${(error as Error).stack ?? error}`);
        results.push(...scenario.figures.map((f) => unavailable(f.scenario, f.unit, f.target, `failed: ${(error as Error).message}`)));
        if (!server.running) await server.start();
      }
      log(`scenario ${scenario.id} took ${Math.round((Date.now() - scenarioStarted) / 1000)} s`);
    }

    const version = (await pool.query<{ server_version: string }>("SHOW server_version")).rows[0].server_version;
    const info: RunInfo = {
      date: new Date().toISOString().slice(0, 16) + "Z",
      mode: options.quick ? "quick" : "full",
      cores: os.availableParallelism(),
      cpu: os.cpus()[0]?.model.trim() ?? "unknown CPU",
      node: process.version,
      postgres: `PostgreSQL ${version}`,
      database: options.external ? "DATABASE_URL's server" : "embedded",
    };
    process.stderr.write(`\n${table(results, info)}`);
    process.stderr.write(`total time ${Math.round((Date.now() - started) / 1000)} s\n`);
    if (options.json) process.stdout.write(`${json(results)}\n`);
    return 0;
  } finally {
    http.close();
    await server.stop();
    sink.stop();
    await pool.end();
    await db.$disconnect();
    // Prisma leaves a pool it was given open; its idle connections would be cut by the DROP below
    // and each one logged as lost.
    await productPool.end();
    await dropDatabase();
  }
}

let counter = 0;
const nextOwner = () => `${process.pid}-${++counter}`;
