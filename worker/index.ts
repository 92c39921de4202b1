import { run, type TaskList } from "graphile-worker";
import { db } from "@/lib/db";
import { ensureDatabase } from "@/lib/db/ensure-database";
import { exitOnStartupError } from "@/lib/db/startup-error";
import { env } from "@/lib/env";
import { isLoopTask, workerTasks, type LoopTask } from "./tasks";

// `npm run worker` (and beside Next.js in `npm run dev` / `npm start`): graphile-worker for the
// broadcast-level jobs, plus one loop per background activity (the email sender first). Any
// number of workers may share one database: emails are claimed with row locks, never twice.

function startLoop(task: LoopTask) {
  let stopping = false;
  const wakers = new Set<() => void>();
  const lane = async () => {
    while (!stopping) {
      let did = 0;
      try {
        did = await task.run();
      } catch (error) {
        console.error(`[worker] ${task.name} failed:`, error);
      }
      if (did === 0 && !stopping) {
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            wakers.delete(wake);
            resolve();
          };
          const timer = setTimeout(wake, task.intervalMs);
          wakers.add(wake);
        });
      }
    }
  };
  const finished = Promise.all(Array.from({ length: task.concurrency ?? 1 }, lane));
  return {
    /** Stops claiming: the rounds in progress finish (their emails are sent and recorded) first. */
    stop: async () => {
      stopping = true;
      for (const wake of [...wakers]) wake();
      await finished;
      await task.close?.();
    },
  };
}

await ensureDatabase().catch(exitOnStartupError);
const taskList: TaskList = {};
for (const task of workerTasks) if (!isLoopTask(task)) taskList[task.name] = task.task;
const runner = await run({ connectionString: env.databaseUrl, concurrency: 4, noHandleSignals: true, pollInterval: 2_000, taskList });
const loops = workerTasks.filter(isLoopTask).map(startLoop);
console.log(`[worker] running ${workerTasks.map((t) => t.name).join(", ")} (pid ${process.pid})`);

let shuttingDown = false;
async function shutdown(signal: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  console.log(`[worker] ${signal}: finishing work in flight`);
  await Promise.all(loops.map((loop) => loop.stop()));
  await runner.stop();
  await db.$disconnect();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
