import { log } from '@/server/observability/log';
import { reportFailure } from '@/server/observability/failures';
import type { WorkerRuntimeOptions } from './worker-runtime';

/** A worker process's runtime lines: normal flow at info; warnings and errors reported (logged and counted) as failures. */
export const workerLog = (processId: string): Pick<WorkerRuntimeOptions, 'log' | 'warn' | 'error'> => ({
  log: (line) => log.info({ processId }, line),
  warn: (line, err) => reportFailure('worker_warning', { processId, ...(err !== undefined && { err }) }, line),
  error: (line, err) => reportFailure('worker_error', { processId, ...(err !== undefined && { err }) }, line),
});
