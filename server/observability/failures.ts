import { currentLogContext, log, type LogContext } from './log';
import { metrics } from './metrics';

/**
 * Every kind of failure the service reports (invariant 10: nothing fails silently) and the level it is logged at:
 * `warn` when it will be tried again or moves on by itself, `error` when it was given up or a person must act.
 */
export const FAILURES = {
  /** A document ended in `error`: we could not build or send it. */
  document_error: 'error',
  /** KSeF rejected a document: its data must be fixed. */
  document_rejected: 'error',
  /** The order cannot be invoiced as sent: the merchant's to act (event, dashboard); nothing of ours failed. */
  document_skipped: 'warn',
  /** A document went back to wait with `last_error` (KSeF not answering, credentials missing or refused). */
  document_delayed: 'warn',
  /** A webhook attempt failed; the next one is scheduled (spec 6.2), or it was a one-off resend. */
  webhook_attempt_failed: 'warn',
  /** The last scheduled webhook attempt failed: delivery stops, the event stays in GET /v1/events. */
  webhook_gave_up: 'error',
  /** A store delivery we refused (bad signature, unknown webhook, bad body); reconciliation picks the order up. */
  store_delivery_refused: 'warn',
  /** A call to a store failed (unreachable, keys refused, REST off); the job tries again. */
  store_call_failed: 'warn',
  /** A write-back that no retry can change (the order deleted in the store, our key revoked): stopped, on the store page and the attention list. */
  store_writeback_gave_up: 'error',
  /** A document's PDF render threw; its lane tries it again later (server/mail/pdf-lane.ts). */
  pdf_render_failed: 'warn',
  /** A document's PDF render threw on its last attempt: no PDF and no e-mail until someone looks. */
  pdf_gave_up: 'error',
  /** The buyer's e-mail was given up (SMTP refused it on the last attempt, or it cannot be sent at all). */
  mail_failed: 'error',
  /** A store had disabled or lost our webhook (its deliveries to us failed); reconciliation re-created it. */
  store_webhook_recreated: 'warn',
  /** KSeF refused a seller's credential: documents wait until the merchant saves a new one. */
  ksef_auth_failed: 'error',
  /** A job threw; graphile-worker runs it again. */
  job_failed: 'warn',
  /** A job threw on its last attempt: graphile-worker keeps it failed, nothing runs it again. */
  job_gave_up: 'error',
  /** The worker runtime or graphile-worker warned (a lost connection, a replaced runner, a job that hangs). */
  worker_warning: 'warn',
  /** The worker runtime or graphile-worker met an error. */
  worker_error: 'error',
  /** The environment fails its schema at start (server/config.ts); the process exits. */
  config_invalid: 'error',
} as const satisfies Record<string, 'warn' | 'error'>;

export type FailureKind = keyof typeof FAILURES;

/**
 * One failure: a log line at its kind's level with `failure: <kind>` and the ids given (the request's or job's
 * ids come from the log context), and one count in ksef_relay_failures_total{kind, mode}. Account ids stay in
 * the log line, never in a label.
 */
export function reportFailure(kind: FailureKind, fields: Record<string, unknown> & { mode?: LogContext['mode'] } = {}, msg: string = kind): void {
  log[FAILURES[kind]]({ failure: kind, ...fields }, msg);
  metrics().failures.inc({ kind, mode: fields.mode ?? currentLogContext().mode ?? 'none' });
}
