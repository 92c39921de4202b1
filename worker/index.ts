import { run, type Runner, type TaskList } from "graphile-worker";
import { db } from "@/lib/db";
import { ensureDatabase } from "@/lib/db/ensure-database";
import { exitOnStartupError } from "@/lib/db/startup-error";
import { env } from "@/lib/env";
import { closeEngineDb } from "@/lib/sending/engine-db";
import { isLoopTask, workerTasks, type LoopTask } from "./tasks";
import { errorField, log } from "@/lib/log";

// `npm run worker` (and beside Next.js in `npm run dev` / `npm start`): graphile-worker for the
// broadcast-level jobs, plus one loop per background activity (the email sender first). Any
// number of workers may share one database: emails are claimed with row locks, never twice.
//
// A database that goes away is survived, not fatal: each loop logs the first failure, backs off
// while it lasts and picks up when the database answers again; the sender keeps what it has sent
// in memory meanwhile (lib/sending/recorder.ts).

/** A graceful stop that takes longer than this (a database away, a server that never answers) ends anyway. */
const SHUTDOWN_MS = 25_000;
const MOST_BACKOFF_MS = 5_000;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

function startLoop(task: LoopTask) {
  let stopping = false;
  const wakers = new Set<() => void>();
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      wakers.add(wake);
    });
  const lane = async () => {
    let failures = 0;
    while (!stopping) {
      let did = 0;
      try {
        did = await task.run();
        if (failures > 0) log.info({ task: task.name, failures }, `[worker] ${task.name} works again after ${failures} failed rounds`);
        failures = 0;
      } catch (error) {
        // One line per streak of failures, not one every round while the database is away.
        if (failures === 0) log.error({ task: task.name, err: errorField(error) }, `[worker] ${task.name} failed (retrying with backoff): ${message(error)}`);
        failures++;
      }
      if (stopping) break;
      if (failures > 0) await pause(Math.min(MOST_BACKOFF_MS, task.intervalMs * 2 ** Math.min(failures, 8)));
      else if (did === 0) await pause(task.intervalMs);
    }
  };
  task.start?.();
  const finished = Promise.all(Array.from({ length: task.concurrency ?? 1 }, lane));
  return {
    /** Stops claiming: the rounds in progress finish (their emails are sent and recorded) first. */
    stop: async () => {
      stopping = true;
      for (const wake of [...wakers]) wake();
      task.interrupt?.();
      await finished;
      await task.close?.();
    },
  };
}

/** graphile-worker for the queue jobs; if its runner fails (the database went away), a new one is started. */
function startQueue(taskList: TaskList) {
  let runner: Runner | null = null;
  let stopping = false;
  let restarts = 0;
  const start = async (): Promise<void> => {
    while (!stopping) {
      try {
        runner = await run({ connectionString: env.databaseUrl, concurrency: 4, noHandleSignals: true, pollInterval: 2_000, taskList });
        // A stop that came while this runner was starting found none to stop: without this, the
        // new runner would run on and the worker's graceful stop wait for it until its deadline.
        if (stopping) {
          await runner.stop().catch(() => undefined);
          return;
        }
        restarts = 0;
        await runner.promise;
        if (stopping) return;
        log.error("[worker] the job queue stopped; starting it again");
      } catch (error) {
        if (stopping) return;
        if (restarts === 0) log.error({ err: errorField(error) }, `[worker] the job queue failed (retrying with backoff): ${message(error)}`);
      }
      runner = null;
      restarts++;
      await new Promise((resolve) => setTimeout(resolve, Math.min(MOST_BACKOFF_MS, 250 * 2 ** Math.min(restarts, 5))));
    }
  };
  const running = start();
  return {
    stop: async () => {
      stopping = true;
      await runner?.stop().catch(() => undefined);
      await running;
    },
  };
}

// Whatever a library drops on the floor while the database is away must not end the process;
// anything else is a bug worth a restart (the launcher restarts the worker).
process.on("unhandledRejection", (reason) => log.error({ err: errorField(reason) }, "[worker] unhandled rejection"));

await ensureDatabase().catch(exitOnStartupError);
const taskList: TaskList = {};
for (const task of workerTasks) if (!isLoopTask(task)) taskList[task.name] = task.task;
const queue = startQueue(taskList);
const loops = workerTasks.filter(isLoopTask).map(startLoop);
log.info({ tasks: workerTasks.map((t) => t.name) }, `[worker] running ${workerTasks.map((t) => t.name).join(", ")} (pid ${process.pid})`);

let shuttingDown = false;
async function shutdown(signal: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  log.info(`[worker] ${signal}: finishing work in flight`);
  const deadline = setTimeout(() => {
    log.error(`[worker] still busy after ${SHUTDOWN_MS} ms; exiting (unrecorded emails are taken over when their lease runs out)`);
    process.exit(1);
  }, SHUTDOWN_MS);
  await Promise.all(loops.map((loop) => loop.stop()));
  await queue.stop();
  await Promise.all([db.$disconnect(), closeEngineDb()]);
  clearTimeout(deadline);
  log.info("[worker] stopped");
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
