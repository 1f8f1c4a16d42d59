import { config } from '@/server/config';
import type { LimitValues } from '@/server/ksef-connection/rate-limits';
import type { WindowUsage } from '@/server/ksef-connection/throttle';
import { KSEF_MAX_BATCH } from './send-batch';

export type SendMode = 'interactive' | 'batch';

/** Documents per batch session, at most KSeF's per-session maximum (KSEF_BATCH_MAX). */
export const batchMax = (): number => Math.min(KSEF_MAX_BATCH, config().KSEF_BATCH_MAX);
/** Interactive sends kept in hand in the hour window for documents that cannot wait. */
const INTERACTIVE_RESERVE = 2;
/** A batch session costs one batchSession request, its open; its close counts in batchSessionClose (KSeF 2.8.0). */
export const BATCH_SESSION_REQUESTS = 1;

type Window = { limits: LimitValues; used: WindowUsage };
const left = (w: Window) => Math.min(w.limits.perMinute - w.used.minute, w.limits.perHour - w.used.hour);

/**
 * Interactive while the queue is short (latency matters: a KSeF number within seconds), a batch session when it
 * is deep, each according to what its budget has left. A short queue waits for the interactive minute window
 * (it frees within a minute) rather than spend a batch session on a few documents: the hourly batchSession budget
 * (60 in production) is what a burst needs. It goes to a batch only when the interactive hour is nearly used up.
 * When the batch budget cannot open and close a session, the interactive path takes the documents it can.
 */
export function chooseSendMode(queueDepth: number, invoiceSend: Window, batchSession?: Window, threshold = config().KSEF_BATCH_THRESHOLD): SendMode {
  const batchPossible = !batchSession || left(batchSession) >= BATCH_SESSION_REQUESTS;
  if (queueDepth > threshold) return batchPossible ? 'batch' : 'interactive';
  const hourLeft = invoiceSend.limits.perHour - invoiceSend.used.hour;
  if (hourLeft >= queueDepth + INTERACTIVE_RESERVE) return 'interactive';
  return batchPossible ? 'batch' : 'interactive';
}
