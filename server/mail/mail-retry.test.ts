import { expect, test } from 'vitest';
import { MAIL_ATTEMPTS } from '@/server/jobs/registry';
import { mailRetryDelayMs } from './mail-retry';

test("a buyer's e-mail is retried as graphile-worker retried a mail_send job: exp(n) s, about 3.5 hours over MAIL_ATTEMPTS", () => {
  expect([1, 2, 3].map(mailRetryDelayMs)).toEqual([2718, 7389, 20086]);
  // the waits between the attempts: one fewer than the attempts
  const span = Array.from({ length: MAIL_ATTEMPTS - 1 }, (_, i) => mailRetryDelayMs(i + 1)).reduce((a, b) => a + b, 0);
  expect(span / 3_600_000).toBeCloseTo(3.56, 2);
  expect(mailRetryDelayMs(12)).toBe(mailRetryDelayMs(10));
});
