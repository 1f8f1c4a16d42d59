import { hostname } from 'node:os';
import { db } from '@/server/db/client';
import { config } from '@/server/config';
import { newId } from '@/server/ids';
import { workerLog } from '@/server/jobs/worker-log';
import { startWorkerRuntime } from '@/server/jobs/worker-runtime';
import { checkProcessConfig } from '@/server/observability/check-config';
import { limitHeapGrowth } from '@/server/observability/heap-growth';
import { log } from '@/server/observability/log';
import { startProbeServer } from '@/server/observability/probe-server';
import { CRONTAB, createTaskList, selectTasks } from './task-list';

/** The worker process: graphile-worker over DATABASE_URL plus the heartbeat that frees dead workers' jobs. */
async function main() {
  if (!checkProcessConfig('worker', ['DATABASE_URL'])) process.exit(1);
  limitHeapGrowth();
  const connectionString = String(config().DATABASE_URL);
  const processId = `${hostname()}:${process.pid}:${newId('req').slice(4, 12)}`;
  const runtime = startWorkerRuntime({
    db: db(),
    connectionString,
    taskList: selectTasks(createTaskList(db()), config().WORKER_TASKS),
    crontab: CRONTAB,
    concurrency: config().WORKER_CONCURRENCY,
    pollInterval: config().WORKER_POLL_MS,
    wakeOnNewJobs: config().WORKER_WAKE_ON_NEW_JOBS === '1',
    plannerOptions: config().WORKER_PLANNER_OPTIONS === '1',
    processId,
    heartbeatMs: config().WORKER_HEARTBEAT_MS,
    shutdownTimeoutMs: config().WORKER_SHUTDOWN_TIMEOUT_MS,
    ...workerLog(processId),
  });
  const probes = config().WORKER_HEALTH_PORT ? await startProbeServer(config().WORKER_HEALTH_PORT, db()) : undefined;
  const stop = async (signal: string) => {
    log.info({ processId }, `worker: ${signal}, finishing running jobs`);
    probes?.close();
    await runtime.stop();
    await db().$client.end({ timeout: 5 });
    log.info({ processId }, 'worker: stopped');
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  log.fatal({ err }, 'worker_fatal');
  process.exit(1);
});
