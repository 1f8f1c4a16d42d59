import { describe, expect, test } from 'vitest';
import { MAX_ATTEMPTS, nextAttemptAt } from './retry-schedule';

const failedAt = new Date('2026-11-20T10:00:00Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('nextAttemptAt', () => {
  test.each([
    { attempt: 1, after: 1 * MINUTE },
    { attempt: 2, after: 5 * MINUTE },
    { attempt: 3, after: 30 * MINUTE },
    { attempt: 4, after: 2 * HOUR },
    { attempt: 5, after: 5 * HOUR },
    { attempt: 6, after: 10 * HOUR },
    { attempt: 7, after: 24 * HOUR },
    { attempt: 8, after: 24 * HOUR },
  ])('retry after failed attempt $attempt waits the spec 6.2 time', ({ attempt, after }) => {
    expect(nextAttemptAt(attempt, failedAt)?.getTime()).toBe(failedAt.getTime() + after);
  });

  test('stops after the eighth retry (attempt 9), 65.6 hours after the first', () => {
    expect(MAX_ATTEMPTS).toBe(9);
    expect(nextAttemptAt(9, failedAt)).toBeNull();
    let at = failedAt;
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) at = nextAttemptAt(attempt, at)!;
    expect((at.getTime() - failedAt.getTime()) / HOUR).toBeCloseTo(65.6, 5); // 236,160 s in all
  });

  test('a time scale shrinks every wait by the same factor', () => {
    expect(nextAttemptAt(1, failedAt, 0.001)?.getTime()).toBe(failedAt.getTime() + 60);
    expect(nextAttemptAt(8, failedAt, 0.5)?.getTime()).toBe(failedAt.getTime() + 12 * HOUR);
  });
});
