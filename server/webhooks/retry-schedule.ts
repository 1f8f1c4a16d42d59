/** Waits before retries 1-8 (spec 6.2), in seconds: after the eighth retry fails, delivery stops. */
export const RETRY_AFTER_S = [60, 300, 1_800, 7_200, 18_000, 36_000, 86_400, 86_400] as const;

/** The first delivery plus eight retries. */
export const MAX_ATTEMPTS = RETRY_AFTER_S.length + 1;

/**
 * When attempt `attempt + 1` runs after attempt `attempt` (1-based) failed at `failedAt`, or null when none is
 * left. `timeScale` shrinks the schedule (tests and benchmarks run the whole of it in seconds); production uses 1.
 */
export function nextAttemptAt(attempt: number, failedAt: Date, timeScale = 1): Date | null {
  const waitS = RETRY_AFTER_S[attempt - 1];
  if (waitS === undefined) return null;
  return new Date(failedAt.getTime() + waitS * 1000 * timeScale);
}
