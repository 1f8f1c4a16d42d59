import { expect, test } from 'vitest';
import { AppError } from '@/server/errors';
import { checkQuota, gcraParams, gcraStep } from './rate-limit';

const SECOND = 1_000_000;

/** Sends a request at each time (µs) through the pure limiter; returns the times that were accepted. */
function run(times: readonly number[], limit = 100): number[] {
  let tat: number | null = null;
  const accepted: number[] = [];
  for (const now of times) {
    const step = gcraStep(tat, now, limit);
    tat = step.tatUs;
    if (step.allowed) accepted.push(now);
  }
  return accepted;
}

/** The most accepted requests inside any window of `widthUs` (windows start at an accepted request). */
function mostInWindow(accepted: readonly number[], widthUs: number): number {
  let most = 0;
  for (let i = 0, j = 0; i < accepted.length; i++) {
    while (accepted[j]! <= accepted[i]! - widthUs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

test('100 a minute: the emission interval is 0.6 s and the burst tolerance 99 intervals', () => {
  expect(gcraParams(100)).toEqual({ emissionUs: 600_000, burstUs: 59_400_000 });
  expect(gcraParams(3)).toEqual({ emissionUs: 20 * SECOND, burstUs: 40 * SECOND });
});

test('a fresh key may send 100 at once; the 101st at the same instant is refused and moves nothing', () => {
  const t0 = 1_000 * SECOND;
  let tat: number | null = null;
  for (let i = 0; i < 100; i++) {
    const step = gcraStep(tat, t0, 100);
    expect(step.allowed).toBe(true);
    expect(checkQuota(true, step.aheadUs).remaining).toBe(99 - i);
    tat = step.tatUs;
  }
  const refused = gcraStep(tat, t0, 100);
  expect(refused).toEqual({ allowed: false, tatUs: tat, aheadUs: 60 * SECOND });
});

test('after a burst the quota refills one request per 0.6 s', () => {
  const t0 = 0;
  const times = [...Array.from({ length: 100 }, () => t0), t0 + 599_999, t0 + 600_000, t0 + 600_001, t0 + 1_200_000];
  expect(run(times).slice(100)).toEqual([t0 + 600_000, t0 + 1_200_000]);
});

test('no burst of 200 fits across a minute edge: 100 just before and 100 just after it give 100', () => {
  const edge = 60 * SECOND;
  const times = [...Array.from({ length: 100 }, () => edge - 100_000), ...Array.from({ length: 100 }, () => edge + 100_000)];
  expect(run(times)).toHaveLength(100);
});

test('a client sending every 10 ms for three minutes never gets more than 100 within a second, nor 200 within a minute', () => {
  const times = Array.from({ length: 18_000 }, (_, i) => 5 * SECOND + i * 10_000);
  const accepted = run(times);
  expect(mostInWindow(accepted, SECOND)).toBeLessThanOrEqual(102);
  expect(mostInWindow(accepted, 60 * SECOND)).toBeLessThan(200);
  // the sustained rate is the 100 a minute the spec promises: the burst, then one per interval
  expect(accepted).toHaveLength(100 + Math.floor((times.at(-1)! - times[0]!) / 600_000));
});

test('quota headers: Remaining counts what still fits now, Reset the seconds until the whole quota is back', () => {
  expect(checkQuota(true, 600_000)).toEqual({ limit: 100, remaining: 99, resetSeconds: 1 });
  expect(checkQuota(true, 1_200_000)).toEqual({ limit: 100, remaining: 98, resetSeconds: 2 });
  expect(checkQuota(true, 59_400_001)).toEqual({ limit: 100, remaining: 0, resetSeconds: 60 });
  expect(checkQuota(true, 60_000_000)).toEqual({ limit: 100, remaining: 0, resetSeconds: 60 });
  expect(checkQuota(true, 0).resetSeconds).toBe(1);
});

test('a refused request is 429 rate_limited with Retry-After: the seconds until one request fits', () => {
  const refuse = (aheadUs: number) => {
    try {
      checkQuota(false, aheadUs);
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('rate_limited');
      return (err as AppError).extra.headers;
    }
    throw new Error('not refused');
  };
  expect(refuse(60 * SECOND)).toEqual({ 'RateLimit-Limit': '100', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '60', 'Retry-After': '1' });
  expect(refuse(59_400_001)?.['Retry-After']).toBe('1');
  expect(() => checkQuota(false, 60 * SECOND, 3)).toThrow(AppError);
  try {
    checkQuota(false, 60 * SECOND, 3);
  } catch (err) {
    expect((err as AppError).extra.headers?.['Retry-After']).toBe('20');
  }
});
