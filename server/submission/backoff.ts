import { config } from '@/server/config';
/** Scales the backoff (not Retry-After), so fault-injection tests run in seconds; 1 in production. */

/** Seconds before retry `attempt` (1-based): 2, 4, 8 … capped at 5 minutes, or KSeF's Retry-After when longer. */
export function retryDelaySeconds(attempt: number, retryAfterSeconds?: number): number {
  const exponential = Math.min(300, 2 ** Math.min(attempt, 9)) * config().KSEF_RETRY_SCALE;
  return Math.max(exponential, retryAfterSeconds ?? 0);
}

/**
 * KSeF does not decide an invoice or a batch faster than about a second (the docs' own tests poll every 1 s), so
 * a document is first polled when it has waited that long: earlier polls only spent requests of the seller's
 * invoiceStatus budget (1,200 an hour in production) and a job each.
 */
const FIRST_POLL_AFTER_MS = 1_000;

/**
 * Status polling by how long the document or batch has waited for KSeF's decision, not by how often it was
 * polled: nothing before FIRST_POLL_AFTER_MS, then a tenth of its age, from 0.25 s to 30 s. KSeF usually decides
 * within seconds, so the first polls come fast; a long wait is polled less often, but a decision is never noticed
 * more than 30 s late, however many polls (or KSeF faults) came before. A Retry-After from KSeF is honoured when
 * it is longer.
 */
export function pollDelayMs(ageMs: number, retryAfterSeconds?: number): number {
  const age = Math.max(0, ageMs);
  const byAge = Math.min(30_000, Math.max(250, Math.round(age / 10)));
  return Math.max(FIRST_POLL_AFTER_MS - age, byAge, (retryAfterSeconds ?? 0) * 1000);
}

/** When the first status poll of something KSeF has just taken runs. */
export const firstPollAt = (now = Date.now()): Date => new Date(now + pollDelayMs(0));
