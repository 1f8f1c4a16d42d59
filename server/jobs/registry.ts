import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { modeEnum } from '@/server/db/schema/enums';
import { ATTENTION_KINDS } from '@/server/attention/kinds';

const ZMode = z.enum(modeEnum.enumValues);
const ZDocumentJob = z.object({ documentId: z.string().min(1) });
const ZScopeJob = z.object({ accountId: z.string().min(1), mode: ZMode });

const ZAttentionKind = z.enum(ATTENTION_KINDS);

/**
 * SMTP refusals are retried with graphile-worker's back-off, exp(n) s after the n-th attempt: 10 attempts span
 * about 3.5 hours (a buyer's e-mail per document counts its own, server/mail/mail-retry.ts).
 */
export const MAIL_ATTEMPTS = 10;

type JobDefinition<P extends z.ZodType> = {
  /** Jobs outlive deploys: payloads are parsed, not trusted (graphile-worker's advice). */
  payload: P;
  /** graphile-worker job key: one live job per key, so a step enqueued twice runs once. */
  key: (p: z.input<P>) => string;
  /**
   * The worker lock the job's step runs under (server/jobs/worker-locks.ts), also the job's graphile-worker flag:
   * while the lock is held, fetches skip the jobs that name it.
   */
  lock?: (p: z.input<P>) => string;
  maxAttempts?: number;
  /**
   * The key names all the work (a seller lane, an online session), so a waiting job of the key that runs no later
   * already does what a new one would: enqueue keeps it instead of adding a row (one row per run, not per
   * document of a burst).
   */
  lane?: true;
};
const job = <P extends z.ZodType>(d: JobDefinition<P>) => d;

/** The key of a seller lane's step: `<step>:<account>:<mode>` (laneKeySql builds the same in SQL). */
export const laneKey = (step: string, p: { accountId: string; mode: string }): string => `${step}:${p.accountId}:${p.mode}`;
/** laneKey in SQL, of the row `alias` (a table with account_id and mode); `step` is one of the constants below. */
export const laneKeySql = (step: string, alias: string) => sql.raw(`'${step}:' || ${alias}.account_id || ':' || ${alias}.mode::text`);
export const PREPARE_STEP = 'prepare';
export const SEND_STEP = 'send';
export const PDF_STEP = 'pdf';
export const MAIL_STEP = 'mail';

/**
 * Every task of the worker (plain identifiers: graphile-worker's folder rules, DESIGN.md) with its payload and job
 * key. `enqueue` derives the key from here, and the worker's task list must cover exactly these names.
 */
export const JOBS = {
  // one step numbers every pending document of a seller lane (server/documents/prepare-lane.ts)
  document_prepare: job({ payload: ZScopeJob, key: (p) => laneKey(PREPARE_STEP, p), lane: true }),
  // one step sends the due queued documents of a seller lane (server/submission/send-lane.ts); the lock keeps a
  // second run of the lane (a successor enqueued while one runs) from fetching while the first still sends
  ksef_send: job({ payload: ZScopeJob, key: (p) => laneKey(SEND_STEP, p), lock: (p) => laneKey('ksef_send', p), lane: true }),
  // one status step per online session (server/submission/poll-status.ts); kept like a lane job: a document sent
  // into the session while its poll waits is polled with it, and never pushes that poll later
  ksef_status: job({
    payload: ZScopeJob.extend({ sessionRef: z.string().min(1), poll: z.number().int().nonnegative().default(0) }),
    key: (p) => `status:${p.sessionRef}`,
    lane: true,
  }),
  ksef_batch_status: job({
    payload: z.object({ batchId: z.string().min(1), poll: z.number().int().nonnegative().default(0) }),
    key: (p) => `batch:${p.batchId}`,
  }),
  // plan_release and ksef_check without a scope come from the cron and cover every scope
  plan_release: job({ payload: ZScopeJob.partial(), key: (p) => `plan:${p.accountId ?? '*'}:${p.mode ?? '*'}` }),
  ksef_check: job({ payload: ZScopeJob.partial(), key: (p) => `check:${p.accountId ?? '*'}:${p.mode ?? '*'}` }),
  // one step renders every PDF a seller lane needs and sends each first e-mail right after (server/mail/pdf-lane.ts)
  pdf_render: job({ payload: ZScopeJob, key: (p) => laneKey(PDF_STEP, p), lane: true }),
  // issue 17: offline issuing after the configured delay (dueAt set once the delay is scheduled), deadline watch
  offline_issue: job({ payload: ZDocumentJob.extend({ dueAt: z.iso.datetime().optional() }), key: (p) => `offline:${p.documentId}` }),
  offline_deadline: job({ payload: ZDocumentJob, key: (p) => `offline-deadline:${p.documentId}` }),
  // a lane's refused e-mails, each on its own attempt count and time (server/mail/mail-lane.ts)
  mail_send: job({ payload: ZScopeJob, key: (p) => laneKey(MAIL_STEP, p), lane: true }),
  webhook_deliver: job({
    payload: z.object({
      eventId: z.string().min(1),
      endpointId: z.string().min(1),
      attempt: z.number().int().positive(),
      manual: z.boolean().optional(),
    }),
    // a manual resend takes its own attempt number, so it never replaces a scheduled retry
    key: (p) => `${p.manual ? 'resend' : 'deliver'}:${p.eventId}:${p.endpointId}:${p.attempt}`,
  }),
  maintenance: job({ payload: z.object({}).passthrough(), key: () => 'maintenance' }),
  // cron: documents on their way to KSeF that lost their send or status job get it back (server/submission/resend-orphans.ts)
  ksef_sweep: job({ payload: z.object({}).passthrough(), key: () => 'ksef_sweep', maxAttempts: 1 }),
  // store connections (server/stores): a verified delivery, a reconciliation (every store from the cron), a write-back
  store_delivery: job({ payload: z.object({ deliveryId: z.number().int().positive() }), key: (p) => `store_delivery:${p.deliveryId}`, maxAttempts: 10 }),
  store_sync: job({ payload: z.object({ storeId: z.string().min(1).optional() }), key: (p) => `store_sync:${p.storeId ?? '*'}`, maxAttempts: 3 }),
  store_writeback: job({ payload: ZDocumentJob, key: (p) => `store_writeback:${p.documentId}`, maxAttempts: 15 }),
  // the merchant's attention e-mails (server/attention): the cron evaluates every scope, then one e-mail per member
  attention_check: job({ payload: z.object({}).passthrough(), key: () => 'attention_check', maxAttempts: 3 }),
  attention_mail: job({
    payload: ZScopeJob.extend({
      userId: z.string().min(1),
      type: z.enum(['first', 'digest']),
      entries: z.array(z.object({ kind: ZAttentionKind, count: z.number().int(), limit: z.number().int().optional() })),
      newKinds: z.array(ZAttentionKind),
    }),
    // a newer e-mail to the same member replaces one still waiting: it carries the newer list
    key: (p) => `attention_mail:${p.accountId}:${p.mode}:${p.userId}`,
    maxAttempts: MAIL_ATTEMPTS,
  }),
  // an owner's invitation (server/accounts/invites.ts): the link's token travels sealed, never stored in the clear
  invite_mail: job({
    payload: z.object({ inviteId: z.string().min(1), sealedToken: z.string().min(1) }),
    key: (p) => `invite_mail:${p.inviteId}`,
    maxAttempts: MAIL_ATTEMPTS,
  }),
  // a password reset link (server/accounts/password-reset.ts): sealed like an invitation's; a stale mail is useless
  password_reset_mail: job({
    payload: z.object({ resetId: z.string().min(1), sealedToken: z.string().min(1) }),
    key: (p) => `password_reset_mail:${p.resetId}`,
    maxAttempts: 5,
  }),
} as const;

export type TaskName = keyof typeof JOBS;
export type JobPayload<T extends TaskName> = z.output<(typeof JOBS)[T]['payload']>;
export type JobInput<T extends TaskName> = z.input<(typeof JOBS)[T]['payload']>;
export const TASK_NAMES = Object.keys(JOBS) as TaskName[];

export const jobKey = <T extends TaskName>(task: T, payload: JobInput<T>): string => (JOBS[task].key as (p: JobInput<T>) => string)(payload);

export const jobLock = <T extends TaskName>(task: T, payload: JobInput<T>): string | undefined =>
  (JOBS[task] as { lock?: (p: JobInput<T>) => string }).lock?.(payload);

/** Whether the task's payload is its seller lane (see JobDefinition.lane). */
export const isLaneJob = (task: TaskName): boolean => (JOBS[task] as { lane?: true }).lane === true;

/** Whether the task's steps run under a worker lock. */
export const hasJobLock = (task: string): boolean => task in JOBS && 'lock' in JOBS[task as TaskName];

export const parsePayload = <T extends TaskName>(task: T, payload: unknown): JobPayload<T> => JOBS[task].payload.parse(payload) as JobPayload<T>;
