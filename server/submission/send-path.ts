import { config } from '@/server/config';
import type { Db } from '@/server/db/client';
import { ksefLimitsFor } from '@/server/ksef-connection/rate-limits';
import { limiterOf, peekWaitMs } from '@/server/ksef-connection/throttle';
import { BATCH_SESSION_REQUESTS, type SendMode } from './send-mode';
import type { SendDecision } from './sending-status';

/** Time until a path's budget has room: a batch session's open and its close (each its own group), one invoiceSend otherwise. */
async function budgetWaitMs(db: Db, decision: SendDecision, mode: SendMode): Promise<number> {
  const key = { environment: decision.environment, context: decision.context ?? '-' };
  const limits = await ksefLimitsFor(db, decision.environment);
  if (mode === 'batch') {
    const [open, close] = await Promise.all([
      peekWaitMs(db, limiterOf(key, 'batchSession', 'batchSession'), limits.batchSession, BATCH_SESSION_REQUESTS),
      peekWaitMs(db, limiterOf(key, 'batchSessionClose', 'batchSessionClose'), limits.batchSessionClose, 1),
    ]);
    return Math.max(open, close);
  }
  return peekWaitMs(db, limiterOf(key, 'invoiceSend', 'invoiceSend'), limits.invoiceSend, 1);
}

/**
 * The path this run takes and how long it must wait for it: the chosen mode when its budget has room now, else
 * the other one if that has (a document waits only while both budgets are spent), else whichever frees first.
 */
export async function sendPath(db: Db, decision: SendDecision, batchable: boolean): Promise<{ mode: SendMode; waitMs: number }> {
  const preferred = batchable ? decision.mode : 'interactive';
  const waitMs = await budgetWaitMs(db, decision, preferred);
  if (waitMs <= config().KSEF_THROTTLE_INLINE_WAIT_MS || !batchable) return { mode: preferred, waitMs };
  const other: SendMode = preferred === 'batch' ? 'interactive' : 'batch';
  const otherWaitMs = await budgetWaitMs(db, decision, other);
  return otherWaitMs < waitMs ? { mode: other, waitMs: otherWaitMs } : { mode: preferred, waitMs };
}
