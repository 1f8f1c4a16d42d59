import { EventEmitter } from 'node:events';
import { hostname } from 'node:os';
import { makeWorkerUtils, run, type WorkerEvents } from 'graphile-worker';
import { db } from '../server/db/client';
import { config } from '../server/config';
import { beat, forget, releaseDeadWorkers } from '../server/jobs/heartbeat';
import { newId } from '../server/ids';
import { CRONTAB, createTaskList, selectTasks } from './task-list';

const HEARTBEAT_MS = Number(process.env.WORKER_HEARTBEAT_MS ?? 3_000);

/** The worker process: graphile-worker over DATABASE_URL plus the heartbeat that frees dead workers' jobs. */
async function main() {
  const connectionString = config().DATABASE_URL;
  if (!connectionString) throw new Error('DATABASE_URL is not set');
  const processId = `${hostname()}:${process.pid}:${newId('req').slice(4, 12)}`;
  const graphileIds: string[] = [];
  // Attached before run() so that no id is missed: a survivor unlocks these after a SIGKILL. Jobs are locked by
  // the pool's id when fetched in batches and by a worker's id otherwise, so both are recorded.
  const events: WorkerEvents = new EventEmitter();
  events.on('pool:create', ({ workerPool }) => graphileIds.push(workerPool.id));
  events.on('worker:create', ({ worker }) => graphileIds.push(worker.workerId));
  const runner = await run({
    events,
    connectionString,
    concurrency: Number(process.env.WORKER_CONCURRENCY ?? 8),
    taskList: selectTasks(createTaskList(db()), process.env.WORKER_TASKS),
    crontab: CRONTAB,
    noHandleSignals: true,
    pollInterval: 1_000,
  });
  const utils = await makeWorkerUtils({ connectionString });
  const tick = async () => {
    await beat(db(), processId, graphileIds);
    const released = await releaseDeadWorkers(db(), (ids) => utils.forceUnlockWorkers(ids));
    if (released.length) console.log(`worker: released jobs of dead workers ${released.join(', ')}`);
  };
  await tick();
  const timer = setInterval(() => tick().catch((e) => console.error('worker: heartbeat failed', e)), HEARTBEAT_MS);
  console.log(`worker: running (${processId})`);

  const stop = async () => {
    clearInterval(timer);
    await runner.stop();
    await forget(db(), processId);
    await utils.release();
    await db().$client.end();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await runner.promise;
}

main().catch((err) => {
  console.error('worker: fatal', err);
  process.exit(1);
});
