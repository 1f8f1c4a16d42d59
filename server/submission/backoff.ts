/** Scales the backoff (not Retry-After), so fault-injection tests run in seconds; 1 in production. */
const SCALE = Number(process.env.KSEF_RETRY_SCALE ?? 1);

/** Seconds before retry `attempt` (1-based): 2, 4, 8 … capped at 5 minutes, or KSeF's Retry-After when longer. */
export function retryDelaySeconds(attempt: number, retryAfterSeconds?: number): number {
  const exponential = Math.min(300, 2 ** Math.min(attempt, 9)) * SCALE;
  return Math.max(exponential, retryAfterSeconds ?? 0);
}

/** Status polling: 0.25 s doubling to 5 s; KSeF usually decides within seconds. */
export const pollDelayMs = (poll: number): number => Math.min(5_000, 250 * 2 ** Math.min(poll, 5));
