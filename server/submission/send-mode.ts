import type { LimitValues } from './rate-limits';
import { KSEF_MAX_BATCH } from './send-batch';
import type { WindowUsage } from './throttle';

export type SendMode = 'interactive' | 'batch';

/** Queue depth above which a seller's documents go in a batch session (KSEF_BATCH_THRESHOLD). */
export const BATCH_THRESHOLD = Number(process.env.KSEF_BATCH_THRESHOLD ?? 10);
/** Documents per batch session, at most KSeF's per-session maximum (KSEF_BATCH_MAX). */
export const BATCH_MAX = Math.min(KSEF_MAX_BATCH, Number(process.env.KSEF_BATCH_MAX ?? KSEF_MAX_BATCH));
/** Interactive sends kept in hand in the minute and hour windows for documents that cannot wait. */
const INTERACTIVE_RESERVE = 2;

/**
 * Interactive while the queue is short and the interactive window can take all of it with some to spare
 * (latency matters: a KSeF number within seconds); otherwise one batch session gathers the waiting documents.
 */
export function chooseSendMode(queueDepth: number, invoiceSend: { limits: LimitValues; used: WindowUsage }, threshold = BATCH_THRESHOLD): SendMode {
  if (queueDepth > threshold) return 'batch';
  const left = Math.min(invoiceSend.limits.perMinute - invoiceSend.used.minute, invoiceSend.limits.perHour - invoiceSend.used.hour);
  return left < queueDepth + INTERACTIVE_RESERVE ? 'batch' : 'interactive';
}
