import type { TaskList } from 'graphile-worker';
import type { Db } from '../server/db/client';
import { documentPrepare } from './tasks/document-prepare';
import { ksefBatchStatus } from './tasks/ksef-batch-status';
import { ksefCheck } from './tasks/ksef-check';
import { ksefSend } from './tasks/ksef-send';
import { ksefStatus } from './tasks/ksef-status';
import { mailSend } from './tasks/mail-send';
import { maintenance } from './tasks/maintenance';
import { pdfRender } from './tasks/pdf-render';
import { planRelease } from './tasks/plan-release';
import { webhookDeliver } from './tasks/webhook-deliver';

/**
 * The one explicit list of tasks (DESIGN.md: plain identifiers). Tasks get the database they run against, so a
 * test's worker works on the test's own database.
 */
export const createTaskList = (db: Db): TaskList => ({
  document_prepare: documentPrepare(db),
  ksef_send: ksefSend(db),
  ksef_status: ksefStatus(db),
  ksef_batch_status: ksefBatchStatus(db),
  plan_release: planRelease(db),
  ksef_check: ksefCheck(db),
  pdf_render: pdfRender(db),
  mail_send: mailSend(db),
  maintenance: maintenance(db),
  webhook_deliver: webhookDeliver(db),
});

/** plan_release at every full hour also runs at the first minute of each Europe/Warsaw month (whole-hour offset). */
export const CRONTAB = ['0 * * * * maintenance ?max=3', '*/10 * * * * ksef_check ?max=1', '0 * * * * plan_release ?max=1'].join('\n');

/**
 * WORKER_TASKS=pdf_render (comma-separated) makes a worker process run only those tasks, `-pdf_render` all but
 * those: PDF rendering is CPU-bound and blocks its event loop, so the stack gives it a process of its own and the
 * KSeF steps keep their latency. graphile-worker only fetches jobs of the tasks a process has.
 */
export function selectTasks(all: TaskList, spec: string | undefined): TaskList {
  if (!spec?.trim()) return all;
  const names = spec.split(',').map((n) => n.trim()).filter(Boolean);
  const excluded = names.filter((n) => n.startsWith('-')).map((n) => n.slice(1));
  const included = names.filter((n) => !n.startsWith('-'));
  const unknown = [...excluded, ...included].filter((n) => !(n in all));
  if (unknown.length) throw new Error(`WORKER_TASKS names unknown tasks: ${unknown.join(', ')}`);
  return Object.fromEntries(Object.entries(all).filter(([n]) => (included.length ? included.includes(n) : !excluded.includes(n))));
}
