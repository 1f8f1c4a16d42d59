import type { JobHelpers, TaskList } from 'graphile-worker';
import type { Db } from '@/server/db/client';
import { renewPool } from '@/server/db/client';
import { isConnectTimeout, isDatabaseUnavailable } from '@/server/db/faults';
import { trackExecution } from '@/server/jobs/in-flight';
import { jobLock, parsePayload, TASK_NAMES, type TaskName } from '@/server/jobs/registry';
import { reportJobFailure } from '@/server/jobs/job-failure';
import { reportFailure } from '@/server/observability/failures';
import { withLogContext, type LogContext } from '@/server/observability/log';
import { metrics, secondsSince } from '@/server/observability/metrics';
import type { TaskHandler } from './tasks/task';

type Loader<T extends TaskName> = () => Promise<TaskHandler<T>>;

/**
 * One adapter per task of the job registry (the compiler refuses a missing, extra or mistyped one), each loaded on
 * the first job of its task: a process that never renders a PDF never loads the PDF stack (@react-pdf, fonts),
 * and a PDF-only process never loads the KSeF stack (libxml2-wasm with the FA(3) schema), which is most of what
 * a worker process holds in memory.
 */
const TASKS: { [T in TaskName]: Loader<T> } = {
  document_prepare: () => import('./tasks/document-prepare').then((m) => m.documentPrepare),
  ksef_send: () => import('./tasks/ksef-send').then((m) => m.ksefSend),
  ksef_status: () => import('./tasks/ksef-status').then((m) => m.ksefStatus),
  ksef_batch_status: () => import('./tasks/ksef-batch-status').then((m) => m.ksefBatchStatus),
  plan_release: () => import('./tasks/plan-release').then((m) => m.planRelease),
  ksef_check: () => import('./tasks/ksef-check').then((m) => m.ksefCheck),
  pdf_render: () => import('./tasks/pdf-render').then((m) => m.pdfRender),
  mail_send: () => import('./tasks/mail-send').then((m) => m.mailSend),
  maintenance: () => import('./tasks/maintenance').then((m) => m.maintenance),
  ksef_sweep: () => import('./tasks/ksef-sweep').then((m) => m.ksefSweep),
  webhook_deliver: () => import('./tasks/webhook-deliver').then((m) => m.webhookDeliver),
  offline_issue: () => import('./tasks/offline').then((m) => m.offlineIssue),
  offline_deadline: () => import('./tasks/offline').then((m) => m.offlineDeadline),
  store_delivery: () => import('./tasks/store').then((m) => m.storeDelivery),
  store_sync: () => import('./tasks/store').then((m) => m.storeSync),
  store_writeback: () => import('./tasks/store').then((m) => m.storeWriteback),
  attention_check: () => import('./tasks/attention').then((m) => m.attentionCheck),
  attention_mail: () => import('./tasks/attention').then((m) => m.attentionMail),
  invite_mail: () => import('./tasks/invite-mail').then((m) => m.inviteMail),
  password_reset_mail: () => import('./tasks/password-reset-mail').then((m) => m.passwordResetMail),
};

function bind<T extends TaskName>(db: Db, name: T) {
  let run: Promise<ReturnType<TaskHandler<T>>> | undefined;
  const load = () =>
    (run ??= (TASKS[name] as Loader<T>)().then(
      (adapter) => adapter(db),
      (err: unknown) => {
        run = undefined;
        throw err;
      },
    ));
  // jobs outlive deploys: the payload is parsed against the registry's schema, not trusted
  return (payload: unknown, helpers: JobHelpers) => {
    const ids = (payload ?? {}) as { documentId?: unknown; accountId?: unknown; mode?: unknown };
    const context: LogContext = {
      jobId: helpers.job.id,
      task: name,
      ...(typeof ids.documentId === 'string' && { documentId: ids.documentId }),
      ...(typeof ids.accountId === 'string' && { accountId: ids.accountId }),
      ...((ids.mode === 'test' || ids.mode === 'live') && { mode: ids.mode as 'test' | 'live' }),
    };
    return trackExecution(helpers.job, () =>
      withLogContext(context, async () => {
        try {
          await observeJob(name, async () => (await load())(parsePayload(name, payload ?? {}), helpers)).catch(async (err: unknown) => {
            if (!isDatabaseUnavailable(err)) throw err;
            if (isConnectTimeout(err)) renewPool(db);
            if (!helpers.job.key) throw err;
            await runAgainSoon(name, payload, helpers, err);
          });
        } catch (err) {
          // what reaches graphile-worker fails the job: reported once, here, with the job's ids and attempt
          reportJobFailure(helpers.job, err);
          throw err;
        }
      }),
    );
  };
}

/** Seconds before a job the database failed runs again. */
const DATABASE_RETRY_SECONDS = 5;

/**
 * The database, not the job, failed (a lost connection, a restart): the job runs again in a few seconds as a new
 * row, through graphile-worker's own pool, without counting an attempt. graphile-worker's back-off (exp(attempts)
 * seconds) would otherwise have a job that met a few connection losses wait for many minutes.
 */
async function runAgainSoon(name: TaskName, payload: unknown, helpers: JobHelpers, err: unknown): Promise<void> {
  const parsed = parsePayload(name, payload ?? {});
  const lock = jobLock(name, parsed);
  await helpers.addJob(name, parsed, {
    jobKey: helpers.job.key!,
    runAt: new Date(Date.now() + DATABASE_RETRY_SECONDS * 1000),
    maxAttempts: helpers.job.max_attempts,
    priority: helpers.job.priority,
    flags: lock ? [lock] : undefined,
  });
  reportFailure('job_failed', { err, retryInSeconds: DATABASE_RETRY_SECONDS }, 'job_retried_database_unavailable');
}

/** Duration and outcome of every job (its failure is reported by the caller, which knows whether it runs again). */
async function observeJob(task: TaskName, run: () => Promise<void>): Promise<void> {
  const started = performance.now();
  try {
    await run();
    metrics().jobDuration.observe({ task, outcome: 'ok' }, secondsSince(started));
  } catch (err) {
    metrics().jobDuration.observe({ task, outcome: 'failed' }, secondsSince(started));
    metrics().jobFailures.inc({ task });
    throw err;
  }
}

/** The worker's task list; tasks get the database they run against, so a test's worker uses the test's database. */
export const createTaskList = (db: Db): TaskList => Object.fromEntries(TASK_NAMES.map((name) => [name, bind(db, name)]));

/** plan_release at every full hour also runs at the first minute of each Europe/Warsaw month (whole-hour offset). */
export const CRONTAB = [
  '0 * * * * maintenance ?max=3',
  '*/10 * * * * ksef_check ?max=1',
  '* * * * * ksef_sweep ?max=1',
  '0 * * * * plan_release ?max=1',
  '*/10 * * * * store_sync ?max=1',
  '*/10 * * * * attention_check ?max=1',
].join('\n');

/**
 * WORKER_TASKS=pdf_render (comma-separated) makes a worker process run only those tasks, `-pdf_render` all but
 * those: PDF rendering is CPU-bound and blocks its event loop, so the stack gives it a process of its own and the
 * KSeF steps keep their latency. graphile-worker only fetches jobs of the tasks a process has.
 */
export function selectTasks(all: TaskList, spec: string | undefined): TaskList {
  if (!spec?.trim()) return all;
  const names = spec
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const excluded = names.filter((n) => n.startsWith('-')).map((n) => n.slice(1));
  const included = names.filter((n) => !n.startsWith('-'));
  const unknown = [...excluded, ...included].filter((n) => !(n in all));
  if (unknown.length) throw new Error(`WORKER_TASKS names unknown tasks: ${unknown.join(', ')}`);
  return Object.fromEntries(Object.entries(all).filter(([n]) => (included.length ? included.includes(n) : !excluded.includes(n))));
}
