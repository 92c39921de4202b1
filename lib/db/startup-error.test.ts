import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureEmbeddedCluster, stopEmbeddedCluster } from "./embedded";
import { ensureDatabase } from "./ensure-database";
import { StartupError } from "./startup-error";

const run = promisify(execFile);
const adminUrl = () => process.env.TEST_ADMIN_DATABASE_URL!;
const suffix = randomUUID().slice(0, 8);
const role = `startup_${suffix}`;

function urlFor({ user, password, database, port }: { user?: string; password?: string; database: string; port?: number }): string {
  const url = new URL(adminUrl());
  if (user) url.username = user;
  if (password) url.password = password;
  if (port) url.port = String(port);
  url.pathname = `/${database}`;
  return url.toString();
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The StartupError a promise rejects with; fails the test for any other outcome. */
async function startupError(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StartupError);
  const message = (error as StartupError).message;
  expect(message.split("\n")).toHaveLength(1);
  return message;
}

/** A TCP port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("start-up against a PostgreSQL that is not ready", () => {
  beforeAll(() => admin((c) => c.query(`CREATE ROLE ${role} LOGIN PASSWORD 'secret' NOCREATEDB`)));
  afterAll(() =>
    admin(async (c) => {
      await c.query(`DROP DATABASE IF EXISTS ${role}_made WITH (FORCE)`);
      await c.query(`DROP ROLE IF EXISTS ${role}`);
    }),
  );

  it("creates a missing database when the role may, and migrates it", async () => {
    const url = urlFor({ database: `${role}_made` });
    await ensureDatabase(url);
    const tables = new pg.Client({ connectionString: url });
    await tables.connect();
    const { rows } = await tables.query(`SELECT count(*)::int AS n FROM "_prisma_migrations"`);
    await tables.end();
    expect(rows[0].n).toBeGreaterThan(0);
  });

  it("says in one line how to create the database when the role may not", async () => {
    const message = await startupError(ensureDatabase(urlFor({ user: role, password: "secret", database: `${role}_missing` })));
    expect(message).toContain(`${role}_missing`);
    expect(message).toMatch(/CREATE DATABASE/);
    expect(message).toMatch(/CREATEDB/);
  });

  it("names a wrong password, and a server that is not there, without a stack", async () => {
    expect(await startupError(ensureDatabase(urlFor({ user: role, password: "wrong", database: "postgres" })))).toMatch(/refused role/);
    const port = await closedPort();
    expect(await startupError(ensureDatabase(urlFor({ database: "postgres", port })))).toMatch(
      new RegExp(`Cannot reach PostgreSQL at 127\\.0\\.0\\.1:${port}`),
    );
  });

  it("tells that the embedded cluster's port is taken by another program", async () => {
    const squatter = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => squatter.listen(0, "127.0.0.1", resolve));
    const { port } = squatter.address() as net.AddressInfo;
    const dataDir = mkdtempSync(path.join(tmpdir(), "startup-"));
    try {
      const message = await startupError(ensureEmbeddedCluster({ dataDir, port }));
      expect(message).toContain(`port ${port} is taken`);
      expect(message).toContain("EMBEDDED_PG_PORT");
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("refuses a port where another checkout's embedded cluster answers, and adopts its own", async () => {
    const port = await closedPort();
    const ours = path.resolve(`.data/startup-ours-${suffix}`);
    const theirs = path.resolve(`.data/startup-theirs-${suffix}`);
    try {
      expect(await ensureEmbeddedCluster({ dataDir: theirs, port })).toBe(true);
      const message = await startupError(ensureEmbeddedCluster({ dataDir: ours, port }));
      expect(message).toContain(`port ${port}`);
      expect(message).toContain(path.join(theirs, "pg"));
      expect(message).toContain("EMBEDDED_PG_PORT");
      expect(existsSync(ours)).toBe(false);
      // Its own cluster, already running, is used as it is.
      expect(await ensureEmbeddedCluster({ dataDir: theirs, port })).toBe(false);
    } finally {
      await stopEmbeddedCluster(theirs);
      rmSync(theirs, { recursive: true, force: true });
      rmSync(ours, { recursive: true, force: true });
    }
  });

  it("the command line prints that one line and exits 1", async () => {
    const env = { ...process.env, DATABASE_URL: urlFor({ user: role, password: "secret", database: `${role}_missing` }) };
    const failed = await run(path.resolve("node_modules/.bin/tsx"), ["cli/index.ts", "org:create", "--name", "A", "--email", "a@example.test"], {
      env,
      timeout: 60_000,
    }).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(failed?.code).toBe(1);
    const lines = failed!.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: Role .* may not create database|^error: Database .* does not exist/);
  });
});
