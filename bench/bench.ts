import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { Sizes } from "./config";
import { HttpClient } from "./http";
import type { ProductServer } from "./processes";
import type { Sink } from "./sink";

export type ProductOrg = { organizationId: string; token: string };

/** What every scenario gets: the sizes, the server, a client for it, and plain `pg` on the same database. */
export type Bench = {
  sizes: Sizes;
  quick: boolean;
  databaseUrl: string;
  /** Plain pg on the benchmark database: the baselines, and the seeding. */
  pg: pg.Pool;
  server: ProductServer;
  http: HttpClient;
  sink: Sink;
  /** The environment the server runs with (the worker gets the same). */
  serverEnv: NodeJS.ProcessEnv;
  dataDir: string;
  /** An organization with an owner and an API key, made by the same services as `npm run cli -- org:create`. */
  createOrg(name: string): Promise<ProductOrg>;
  /** An organization row only: somewhere for a baseline to write. */
  bareOrg(name: string): Promise<string>;
  /** Shared fixtures, seeded on first use. */
  fixtures: Map<string, Promise<unknown>>;
  log(message: string): void;
};

export async function bareOrg(pool: pg.Pool, name: string): Promise<string> {
  const id = randomUUID();
  await pool.query("INSERT INTO organizations (id, name) VALUES ($1, $2)", [id, name]);
  return id;
}

/** COPY of text-format chunks into `table (columns)` on one connection; answers the seconds it took. */
export async function copyInto(pool: pg.Pool | pg.PoolClient, table: string, columns: string, chunks: Iterable<string>): Promise<number> {
  const client = "release" in pool ? pool : await pool.connect();
  try {
    const started = performance.now();
    await pipeline(Readable.from(chunks), client.query(copyFrom(`COPY ${table} (${columns}) FROM STDIN`)));
    return (performance.now() - started) / 1000;
  } finally {
    if (client !== pool) (client as pg.PoolClient).release();
  }
}

/** Removes what a scenario wrote, so the next one starts from the same table sizes. */
export async function dropContacts(pool: pg.Pool, organizationIds: string[]) {
  await pool.query("DELETE FROM contacts WHERE organization_id = ANY($1::uuid[])", [organizationIds]);
  await pool.query("VACUUM contacts");
}

/** Runs `fn` once per key and shares its promise. */
export function fixture<T>(bench: Bench, key: string, fn: () => Promise<T>): Promise<T> {
  let existing = bench.fixtures.get(key) as Promise<T> | undefined;
  if (!existing) {
    existing = fn();
    bench.fixtures.set(key, existing);
  }
  return existing;
}

/**
 * Runs one round of both sides: the product first in even rounds, the baseline first in odd ones, so
 * that neither always meets the warmer (or the busier) machine.
 */
export async function alternate(round: number, product: () => Promise<unknown>, baseline: () => Promise<unknown>): Promise<void> {
  const [first, second] = round % 2 === 0 ? [product, baseline] : [baseline, product];
  await first();
  await second();
}

export const seconds = (startedMs: number) => (performance.now() - startedMs) / 1000;
