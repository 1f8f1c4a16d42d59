import { expect, test } from 'vitest';
import { AppError } from '@/server/errors';
import { checkQuota, slidingLogStep } from './rate-limit';

const SECOND = 1_000_000;

type Answer = { at: number; allowed: boolean; remaining: number; reset: number; retryAfter?: number };

/** Sends a request at each time (µs) through the pure limiter; returns what each was answered. */
function run(times: readonly number[], limit = 100): Answer[] {
  let log: number[] = [];
  return times.map((at) => {
    const step = slidingLogStep(log, at, limit);
    log = step.logUs;
    try {
      const q = checkQuota(step.allowed, step.used, step.freesInUs, limit);
      return { at, allowed: true, remaining: q.remaining, reset: q.resetSeconds };
    } catch (err) {
      const h = (err as AppError).extra.headers!;
      return { at, allowed: false, remaining: Number(h['RateLimit-Remaining']), reset: Number(h['RateLimit-Reset']), retryAfter: Number(h['Retry-After']) };
    }
  });
}

/** The most admitted requests inside any 60-second window [t, t + 60 s). */
function mostInAMinute(answers: readonly Answer[]): number {
  const admitted = answers.filter((a) => a.allowed).map((a) => a.at);
  let most = 0;
  for (let i = 0, j = 0; i < admitted.length; i++) {
    while (admitted[j]! <= admitted[i]! - 60 * SECOND) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

test('100 requests spread over 10 s: Remaining goes 99 … 0, the 101st within the minute is refused', () => {
  const times = Array.from({ length: 101 }, (_, i) => i * 100_000);
  const answers = run(times);
  expect(answers.slice(0, 100).map((a) => a.remaining)).toEqual(Array.from({ length: 100 }, (_, i) => 99 - i));
  expect(answers.slice(0, 100).every((a) => a.allowed)).toBe(true);
  // the oldest (at 0) leaves the window at 60 s: the 101st, at 10 s, may come back in 50 s
  expect(answers[100]).toEqual({ at: 10 * SECOND, allowed: false, remaining: 0, reset: 50, retryAfter: 50 });
});

test('two requests far apart each take one: Remaining does not refill while both are in the window', () => {
  const answers = run([0, 30 * SECOND, 59 * SECOND]);
  expect(answers.map((a) => a.remaining)).toEqual([99, 98, 97]);
  expect(answers.map((a) => a.reset)).toEqual([60, 30, 1]);
});

test('a request fits again exactly when the oldest admitted one is 60 s old, and only one', () => {
  const burst = [0, ...Array.from({ length: 99 }, () => SECOND)];
  const answers = run([...burst, 59_999_999, 60 * SECOND, 60 * SECOND]);
  expect(answers[100]).toMatchObject({ allowed: false, retryAfter: 1 });
  expect(answers[101]).toMatchObject({ allowed: true, remaining: 0, reset: 1 });
  expect(answers[102]).toMatchObject({ allowed: false, retryAfter: 1 });
});

test('refused requests use nothing: hammering while full does not push the next admission later', () => {
  const burst = Array.from({ length: 100 }, (_, i) => i * 10_000);
  const hammer = Array.from({ length: 500 }, (_, i) => SECOND + i * 100_000);
  const answers = run([...burst, ...hammer, 60 * SECOND]);
  expect(answers.slice(100, 600).some((a) => a.allowed)).toBe(false);
  expect(answers.at(-1)).toMatchObject({ allowed: true });
});

test('no 60 seconds ever hold more than 100 admitted requests, at any request pattern', () => {
  const steady = Array.from({ length: 18_000 }, (_, i) => 5 * SECOND + i * 10_000);
  const edges = [...Array.from({ length: 100 }, () => 60 * SECOND - 1), ...Array.from({ length: 100 }, () => 60 * SECOND + 1)];
  let seed = 7;
  const random = Array.from({ length: 5_000 }, () => (seed = (seed * 48_271) % 2_147_483_647) % (200 * SECOND)).sort((a, b) => a - b);
  for (const times of [steady, edges, random]) {
    const answers = run(times);
    expect(mostInAMinute(answers)).toBeLessThanOrEqual(100);
  }
  // the steady sender gets its 100 in every minute: 3 minutes of requests admit 100 per started minute
  expect(run(steady).filter((a) => a.allowed)).toHaveLength(300);
});

test('a small limit: 3 a minute', () => {
  const answers = run([0, 0, 20 * SECOND, 21 * SECOND, 60 * SECOND, 60 * SECOND, 61 * SECOND], 3);
  expect(answers.map((a) => [a.allowed, a.remaining, a.reset, a.retryAfter])).toEqual([
    [true, 2, 60, undefined],
    [true, 1, 60, undefined],
    [true, 0, 40, undefined],
    [false, 0, 39, 39],
    [true, 1, 20, undefined], // both entries at 0 left; the one at 20 s remains
    [true, 0, 20, undefined],
    [false, 0, 19, 19],
  ]);
});

test('the quota headers: Reset and Retry-After round up to whole seconds, at least 1', () => {
  expect(checkQuota(true, 1, 60 * SECOND)).toEqual({ limit: 100, remaining: 99, resetSeconds: 60 });
  expect(checkQuota(true, 100, 1)).toEqual({ limit: 100, remaining: 0, resetSeconds: 1 });
  expect(checkQuota(true, 100, 0).resetSeconds).toBe(1);
  expect(() => checkQuota(false, 100, 1_500_000)).toThrow(AppError);
  try {
    checkQuota(false, 100, 1_500_000);
  } catch (err) {
    expect((err as AppError).code).toBe('rate_limited');
    expect((err as AppError).extra.headers).toEqual({ 'RateLimit-Limit': '100', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '2', 'Retry-After': '2' });
  }
});
