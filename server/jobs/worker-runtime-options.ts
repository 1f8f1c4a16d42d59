import type { TaskList, WorkerEvents } from 'graphile-worker';
import type { Db } from '@/server/db/client';

export type WorkerRuntimeOptions = {
  db: Db;
  connectionString: string;
  taskList: TaskList;
  crontab?: string;
  concurrency: number;
  /** How often an idle worker looks for due jobs (ms); without wakeOnNewJobs this is how soon it sees a new one. */
  pollInterval?: number;
  /**
   * false: the process ignores graphile-worker's "jobs:insert" notifications and only polls. Every job added by any
   * process notifies every worker process, so a process that runs few of the tasks (the PDF worker: one job in six
   * of a document) would otherwise look, find nothing, for nearly every job the others run.
   */
  wakeOnNewJobs?: boolean;
  /**
   * false: graphile-worker's connections start without `withQueueSettings`' options, for a pooler that refuses the
   * `options` startup parameter.
   */
  plannerOptions?: boolean;
  /** Sees each job runner's graphile-worker events (tests count its looks for jobs). */
  observe?: (events: WorkerEvents) => void;
  processId: string;
  heartbeatMs: number;
  /** How long a stopping runner waits for its running jobs before graphile-worker fails them. */
  shutdownTimeoutMs: number;
  /** The runtime's own lines and graphile-worker's, by level: info for normal flow, warn for what is retried, error. */
  log: (line: string) => void;
  warn: (line: string, err?: unknown) => void;
  error: (line: string, err?: unknown) => void;
  /** A job running this long is named by `warn` once (overdueExecutions); no step of ours should take 2 minutes. */
  overdueJobMs?: number;
};
